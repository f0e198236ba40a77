// The tRPC context and the kinds of procedure: public, session (web pages) and API key (/v1).
import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { Principal } from "../keys/apiKeys";
import type { LastSeen } from "../library/staleSave";
import { z } from "zod";
import { DomainError, domainErrorOf, ERROR_TABLE, fromZodIssues } from "../platform/errors";
import { inLabelWords } from "./labels";

/** What a /v1 procedure's meta says beyond its OpenAPI route (server/api/routes.ts reads it). */
export type V1RouteMeta = {
  /** The answer is 201 Created (the create routes), else 200. */
  created?: boolean;
  /** The answer is 202 Accepted: the work is done later (a webhook test event). */
  accepted?: boolean;
  /** The answer is 202 when the procedure held the change back for an admin's review (ctx.accept), else 200. */
  acceptedWhenHeld?: boolean;
  /** A POST that takes nothing but its path (a webhook test event): no body, no Content-Type needed. */
  noBody?: boolean;
  /**
   * The answer depends on nothing but the library's codes and the query (a list page): /v1
   * keeps it in memory under the library's version, which the database raises with every
   * change to those codes.
   */
  cachedByLibraryVersion?: boolean;
  /** Takes the optional If-Unmodified-Since precondition (a PATCH of a record with updated_at): ctx.lastSeen. */
  unmodifiedSince?: boolean;
};

export type Context = {
  requestId: string;
  /** The logged-in account, for calls from the web pages. */
  session: { userId: string } | null;
  /** The authenticated key, for /v1 calls (set by the gate before any procedure runs). */
  principal: Principal | null;
  /** The hosts the request reached the service on (server/platform/served-host.ts), for the redirect-loop rule. */
  servedHosts?: readonly string[];
  /** The record's updated_at the caller saw (If-Unmodified-Since): a later one refuses the save (412). */
  lastSeen?: LastSeen;
  /** A /v1 procedure whose change waits for review (a writer's, held back) calls it: /v1 answers 202. */
  accept?: () => void;
  /** The client address that counts (server/platform/client-address.ts), for the pages' calls. */
  clientAddress?: string;
  /** Gives this browser a new session at the account's current session version (after it ended the others). */
  keepSession?: (account: { id: string; email: string; name: string; sessionVersion: number }) => Promise<void>;
};

const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta & V1RouteMeta>()
  .create({
    // For the web pages: domain messages are meant for people, in the words of the form's
    // labels (server/api/labels.ts); anything else is hidden. Item errors come only from pasted
    // lines here, and name the line.
    errorFormatter({ shape, error }) {
      const domain = domainErrorOf(error);
      return {
        ...shape,
        message: domain
          ? inLabelWords(
              domain.items ? domain.items.map((i) => `Line ${i.index + 1}: ${i.error}`).join("\n") : domain.message,
            )
          : error.code === "INTERNAL_SERVER_ERROR"
            ? "Internal error"
            : shape.message,
        data: { code: shape.data.code, httpStatus: shape.data.httpStatus, items: domain?.items ?? null },
      };
    },
  });

/** Domain errors keep their meaning (403, 404, 409…) instead of becoming 500s: the one table's tRPC code. */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  // A failed input check is the caller's error (400); a failed output check, also a zod error
  // but wrapped as INTERNAL_SERVER_ERROR, is ours.
  const { error } = result;
  const domain =
    error.code === "BAD_REQUEST" && error.cause instanceof z.core.$ZodError
      ? fromZodIssues(error.cause.issues)
      : domainErrorOf(error);
  if (domain) throw new TRPCError({ code: ERROR_TABLE[domain.code].trpc, message: domain.message, cause: domain });
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(domainErrors);

export const sessionProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new DomainError("unauthenticated", "Log in first");
  return next({ ctx: { ...ctx, session: ctx.session } });
});

export const apiKeyProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.principal) throw new DomainError("missing_key", "Missing API key");
  // The hosts the request reached go with the actor to the domain (only a body brings them).
  return next({
    ctx: { ...ctx, principal: ctx.servedHosts ? { ...ctx.principal, servedHosts: ctx.servedHosts } : ctx.principal },
  });
});
