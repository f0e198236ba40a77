// /v1/domains: the library's custom domains (contract Part 3, "Custom domains"); and the same for
// the web pages (/profile for the personal library, /business for the team's, admins only),
// through the same domain functions.
import { z } from "zod";
import {
  addDomain,
  deleteDomain,
  domainCreateInput,
  domainParam,
  domainRecord,
  listDomains,
  verifiedDomainNames,
  verifyDomain,
} from "../../domains/domains";
import { actorFor, libraryKindField } from "../../library/libraryItems";
import { apiKeyProcedure, createTRPCRouter, sessionProcedure } from "../trpc";

const TAGS = ["Custom domains"];
const byDomain = z.object({ domain: domainParam });

export const domainsRouter = createTRPCRouter({
  list: apiKeyProcedure
    .meta({ openapi: { method: "GET", path: "/domains", tags: TAGS, summary: "List the library's custom domains" } })
    .input(z.object({}))
    .output(z.object({ domains: z.array(domainRecord) }))
    .query(({ ctx }) => listDomains(ctx.principal)),

  create: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/domains",
        tags: TAGS,
        summary: "Add a custom domain (then create its TXT record and verify it)",
        description:
          "A domain belongs to one library across the service (409 `Domain already added: <domain>`). The answer names the TXT record to create; `POST /v1/domains/{domain}/verify` looks it up. In a team, admins only.",
        successDescription: "Created",
      },
      created: true,
    })
    .input(domainCreateInput)
    .output(z.object({ domain: domainRecord }))
    .mutation(({ ctx, input }) => addDomain(ctx.principal, input)),

  verify: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/domains/{domain}/verify",
        tags: TAGS,
        summary: "Look the domain's TXT record up: verified, or 409 `TXT record not found: _qr-records.<domain>`",
        description:
          "Once verified, a domain stays verified (a record removed later does not break printed codes); its codes' `short_url` is `https://<domain>/<code>`, and requests with that Host for `/<code>` are answered as `/q/<code>` is.",
      },
      noBody: true,
    })
    .input(byDomain)
    .output(z.object({ domain: domainRecord }))
    .mutation(({ ctx, input }) => verifyDomain(ctx.principal, input.domain)),

  remove: apiKeyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/domains/{domain}",
        tags: TAGS,
        summary: "Delete a custom domain (409 `Domain in use by <n> codes` while live codes use it)",
      },
    })
    .input(byDomain)
    .output(z.object({ domain: z.string(), deleted: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteDomain(ctx.principal, input.domain)),
});

const inLibrary = z.object({ scope: libraryKindField });
const pageByDomain = inLibrary.extend({ domain: z.string() });

/** The pages' calls: the account's personal library or its team's (an admin's), as the scope says. */
export const domainPagesRouter = createTRPCRouter({
  list: sessionProcedure
    .input(inLibrary)
    .query(async ({ ctx, input }) => listDomains(await actorFor(ctx.session.userId, input.scope, null))),
  /** The verified domains a create form offers (any member of the library). */
  usable: sessionProcedure
    .input(inLibrary)
    .query(async ({ ctx, input }) =>
      verifiedDomainNames((await actorFor(ctx.session.userId, input.scope, null)).library),
    ),
  create: sessionProcedure
    .input(inLibrary.extend({ body: domainCreateInput }))
    .mutation(async ({ ctx, input }) => addDomain(await actorFor(ctx.session.userId, input.scope, null), input.body)),
  verify: sessionProcedure
    .input(pageByDomain)
    .mutation(async ({ ctx, input }) =>
      verifyDomain(await actorFor(ctx.session.userId, input.scope, null), input.domain),
    ),
  remove: sessionProcedure
    .input(pageByDomain)
    .mutation(async ({ ctx, input }) =>
      deleteDomain(await actorFor(ctx.session.userId, input.scope, null), input.domain),
    ),
});
