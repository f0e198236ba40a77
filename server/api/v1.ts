// The single entry point of /v1: request id → gate (key, then rate limits) → route → body
// checks → procedure or raw (CSV, image) handler → the contract's error body. The Node server and the
// route handlers under app/v1 only call `handleV1`.
import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { createOpenApiFetchHandler } from "trpc-to-openapi";
import { csvResponse, datedFilename } from "../csv";
import { scanExportResponse } from "../domain/analytics";
import { clientAddress } from "../client-address";
import { authenticateApiKey, isKeyGuess, presentedKey, type PresentedKey, type Principal } from "../domain/apiKeys";
import { qrImageResponse } from "../domain/images";
import { DYNAMIC_EXPORT_COLUMNS, dynamicExportRows } from "../domain/dynamicCodes";
import { STATIC_EXPORT_COLUMNS, staticExportRows } from "../domain/staticCodes";
import { isDatabaseUnreachable } from "../db";
import { DomainError, HTTP_STATUS } from "../errors";
import { nextTurn } from "../event-loop";
import { logError } from "../log";
import { forget, invalidKeyRule, keyRule, take } from "../rate-limit";
import { openApiDocument } from "./openapi";
import { appRouter } from "./root";
import { domainErrorOf, type Context } from "./trpc";

const MAX_BODY_BYTES = 1024 * 1024;

/** A route whose body is not JSON (CSV, images): served by a plain handler, not a procedure. */
type RawHandler = (principal: Principal, params: Record<string, string>, query: URLSearchParams) => Response | Promise<Response>;
type Route = { method: string; path: string; pattern: RegExp; params: string[]; literal: boolean; raw?: RawHandler };

const RAW_ROUTES: { path: string; handler: RawHandler }[] = [
  {
    path: "/qrcodes/export",
    handler: (p) => csvResponse(datedFilename("qrcodes"), STATIC_EXPORT_COLUMNS, staticExportRows(p.library)),
  },
  {
    path: "/dynqrcodes/export",
    handler: (p) => csvResponse(datedFilename("dynqrcodes"), DYNAMIC_EXPORT_COLUMNS, dynamicExportRows(p.library)),
  },
  {
    path: "/dynqrcodes/{code}/analytics/export",
    handler: (p, params, query) => scanExportResponse(p.library, params.code, query),
  },
  { path: "/qrcodes/{qr_id}/image", handler: (p, params, query) => qrImageResponse(p.library, "static", params.qr_id, query) },
  { path: "/dynqrcodes/{code}/image", handler: (p, params, query) => qrImageResponse(p.library, "dynamic", params.code, query) },
];

function route(method: string, path: string, raw?: RawHandler): Route {
  const params: string[] = [];
  const source = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    params.push(name);
    return "([^/]+)";
  });
  return { method, path, pattern: new RegExp(`^${source}$`), params, literal: params.length === 0, raw };
}

/** Every /v1 route: the procedures that carry OpenAPI meta, and the raw handlers. */
const ROUTES: Route[] = [
  ...RAW_ROUTES.map((r) => route("GET", r.path, r.handler)),
  ...Object.values(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: { openapi?: { method: string; path: string } } } }>)
    .map((procedure) => procedure._def.meta?.openapi)
    .filter((openapi) => openapi !== undefined)
    .map((openapi) => route(openapi.method, openapi.path)),
];

/**
 * Routes whose path matches. A literal segment ("batch", "export") is a fixed word: where a
 * literal route matches the path, parameter routes are not considered.
 */
function routesFor(path: string): Route[] {
  const matching = ROUTES.filter((r) => r.pattern.test(path));
  return matching.some((r) => r.literal) ? matching.filter((r) => r.literal) : matching;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });

function domainResponse(error: DomainError): Response {
  const body = error.items ? { errors: error.items } : { error: error.message };
  return json(HTTP_STATUS[error.kind], body, error.headers);
}

function errorResponse(error: unknown, requestId: string): Response {
  if (error instanceof DomainError) return domainResponse(error);
  if (error instanceof TRPCError) {
    const domain = domainErrorOf(error);
    if (domain) return domainResponse(domain);
    if (error.code === "NOT_FOUND") return json(404, { error: "Not found" });
  }
  const cause = error instanceof TRPCError && error.cause ? error.cause : error;
  if (isDatabaseUnreachable(cause)) {
    logError("v1.database_unavailable", { requestId }, cause);
    return json(503, { error: "The database is unavailable for a moment: try again" }, { "Retry-After": "1" });
  }
  logError("v1.internal_error", { requestId }, cause);
  return json(500, { error: "Internal error" });
}

/** Reads the body up to the limit; null when it is larger. */
async function readBody(req: Request): Promise<string | null> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return null;
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Checks of a JSON body: content type (415), size (413), syntax and shape (400). */
async function jsonBody(req: Request): Promise<string | DomainError | Response> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return json(415, { error: "Content-Type must be application/json" });
  }
  const text = await readBody(req);
  if (text === null) return json(413, { error: "The body must be at most 1 MiB" });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return new DomainError("invalid", "The body is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return new DomainError("invalid", "The body must be a JSON object");
  }
  return text;
}

/** What the gate learned that every response of the request carries. */
type Meta = { rateLimitHeaders?: Record<string, string> };

const rateLimited = (retryAfter: number) => new DomainError("rate_limited", "Rate limit exceeded", undefined, { "Retry-After": String(retryAfter) });

/** A request with a missing or invalid key counts against its client address. */
async function countGuess(req: Request): Promise<void> {
  const decision = await take(`guess:${clientAddress(req.headers)}`, invalidKeyRule());
  if (!decision.allowed) throw rateLimited(decision.retryAfter);
}

/**
 * The gate, before any route: the key's shape and hash → its limits (token bucket and daily
 * quota, one atomic decision) → lookup → revoked / not yet active → tier → library. The limits
 * are taken before the lookup so that a burst is decided in the moment it arrives (see
 * below). The errors still come in the contract's order: 401 and 403 before 429.
 */
async function admit(req: Request, meta: Meta): Promise<Principal> {
  let presented: PresentedKey;
  try {
    presented = presentedKey(req.headers.get("x-api-key"));
  } catch (error) {
    await countGuess(req);
    throw error;
  }
  const rule = keyRule(presented.scope);
  const limiterKey = `key:${presented.hash}`;
  const decision = await take(limiterKey, rule);
  // Let every request that has already arrived take its token before this one does its
  // database work (synchronous on SQLite): otherwise each request of a burst is decided only
  // after the previous ones were served, about 3 ms apart, and a burst of 50 spans more than
  // the 100 ms in which a business bucket refills one token.
  await nextTurn();
  let principal: Principal;
  try {
    principal = await authenticateApiKey(presented);
  } catch (error) {
    if (isKeyGuess(error)) {
      await forget(limiterKey); // a key we never issued keeps no limiter state
      await countGuess(req);
    }
    throw error;
  }
  meta.rateLimitHeaders = {
    "X-RateLimit-Limit": String(rule.dailyQuota),
    "X-RateLimit-Remaining": String(Math.max(0, rule.dailyQuota - decision.used)),
    "X-RateLimit-Reset": String(decision.resetAt),
  };
  if (!decision.allowed) throw rateLimited(decision.retryAfter);
  return principal;
}

async function dispatch(req: Request, requestId: string, meta: Meta): Promise<Response> {
  const url = new URL(req.url);
  const path = url.pathname.replace(/^\/v1/, "").replace(/\/+$/, "") || "/";
  const method = req.method.toUpperCase();

  if (path === "/openapi.json") {
    if (method !== "GET" && method !== "HEAD") return json(405, { error: "Method not allowed" }, { Allow: "GET" });
    return json(200, openApiDocument());
  }

  const principal = await admit(req, meta);

  const candidates = routesFor(path);
  if (candidates.length === 0) return json(404, { error: "Not found" });
  const matched = candidates.find((r) => r.method === method);
  if (!matched) {
    const allow = [...new Set(candidates.map((r) => r.method))].join(", ");
    return json(405, { error: `Method not allowed: use ${allow}` }, { Allow: allow });
  }

  if (matched.raw) {
    const values = matched.pattern.exec(path)!.slice(1).map(decodeURIComponent);
    return await matched.raw(principal, Object.fromEntries(matched.params.map((name, i) => [name, values[i]])), url.searchParams);
  }

  let body: string | undefined;
  if (method === "POST" || method === "PATCH" || method === "PUT") {
    const checked = await jsonBody(req);
    if (checked instanceof Response) return checked;
    if (checked instanceof DomainError) return domainResponse(checked);
    body = checked;
  }

  let failure: unknown;
  const response = await createOpenApiFetchHandler({
    endpoint: "/v1",
    router: appRouter,
    req: new Request(url, { method, headers: req.headers, body }),
    createContext: (): Context => ({ requestId, session: null, principal, resMeta: {} }),
    onError: ({ error }: { error: TRPCError }) => {
      failure = error;
    },
    responseMeta: ({ ctx, errors }: { ctx?: Context; errors: unknown[] }) => (errors.length === 0 && ctx?.resMeta.status ? { status: ctx.resMeta.status } : {}),
  } as never);
  if (failure !== undefined || response.status >= 400) return errorResponse(failure, requestId);
  return new Response(response.body, { status: response.status, headers: { "Content-Type": "application/json; charset=utf-8" } });
}

export async function handleV1(req: Request): Promise<Response> {
  const requestId = randomUUID();
  const meta: Meta = {};
  let response: Response;
  try {
    response = await dispatch(req, requestId, meta);
  } catch (error) {
    response = errorResponse(error, requestId);
  }
  response.headers.set("X-Request-Id", requestId);
  for (const [name, value] of Object.entries(meta.rateLimitHeaders ?? {})) response.headers.set(name, value);
  return response;
}
