// The single entry point of /v1: request id → gate (key, then rate limits) → route → body
// checks → procedure or raw (CSV, image) handler → the contract's error body. The Node server and the
// route handlers under app/v1 only call `handleV1`.
import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { LRUCache } from "lru-cache";
import { coerceSchema, getInputOutputParsers, instanceofZodTypeObject, unwrapZodType } from "trpc-to-openapi";
import { csvResponse, datedFilename } from "../csv";
import { scanExportResponse } from "../domain/analytics";
import { clientAddress } from "../client-address";
import { authenticateApiKey, isKeyGuess, presentedKey, type PresentedKey, type Principal } from "../domain/apiKeys";
import { qrImageResponse } from "../domain/images";
import type { Library } from "../domain/library";
import { DYNAMIC_EXPORT_COLUMNS, dynamicExportRows } from "../domain/dynamicCodes";
import { STATIC_EXPORT_COLUMNS, staticExportRows } from "../domain/staticCodes";
import { isDatabaseUnreachable } from "../db";
import { DomainError, HTTP_STATUS } from "../errors";
import { nextTurn } from "../event-loop";
import { logError } from "../log";
import { forget, invalidKeyRule, keyRule, take } from "../rate-limit";
import { openApiDocument } from "./openapi";
import { appRouter } from "./root";
import { createCallerFactory, domainErrorOf, type Context, type ListMeta } from "./trpc";

const MAX_BODY_BYTES = 1024 * 1024;

/** A route whose body is not JSON (CSV, images): served by a plain handler, not a procedure. */
type RawHandler = (principal: Principal, params: Record<string, string>, query: URLSearchParams) => Response | Promise<Response>;

/** What /v1 needs of a request: a Fetch `Request` is one; the Node server makes a lighter one. */
export type V1Request = {
  method: string;
  /** Absolute. */
  url: string;
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
};

/** An answer: JSON text, or a raw handler's streamed body (CSV, images). */
export type V1Answer = { status: number; headers: Record<string, string>; body: string | ReadableStream<Uint8Array> | null };
type Procedure = (input: unknown) => Promise<unknown>;
type Caller = Record<string, Record<string, Procedure>>;
type Route = {
  method: string;
  path: string;
  pattern: RegExp;
  params: string[];
  literal: boolean;
  raw?: RawHandler;
  procedure?: [string, string];
  cachedByLibraryVersion?: boolean;
};

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

function route(method: string, path: string, target: Pick<Route, "raw" | "procedure" | "cachedByLibraryVersion">): Route {
  const params: string[] = [];
  const source = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    params.push(name);
    return "([^/]+)";
  });
  return { method, path, pattern: new RegExp(`^${source}$`), params, literal: params.length === 0, ...target };
}

type ProcedureDef = { _def: { meta?: ListMeta & { openapi?: { method: string; path: string } }; inputs: unknown[] } };
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureDef>).filter(([, p]) => p._def.meta?.openapi);

// Query strings are strings: number fields of a query's input accept them, made so by
// trpc-to-openapi's own function, once at start. (Its handler also did so to JSON bodies,
// where "5" would then pass for 5; a body's numbers stay numbers here.)
for (const [, procedure] of procedures) {
  if (!["GET", "DELETE"].includes(procedure._def.meta!.openapi!.method)) continue;
  const schema = unwrapZodType(getInputOutputParsers(procedure as never).inputParser, true);
  if (instanceofZodTypeObject(schema)) coerceSchema(schema as never);
}

/** Every /v1 route: the procedures that carry OpenAPI meta, and the raw handlers. */
const ROUTES: Route[] = [
  ...RAW_ROUTES.map((r) => route("GET", r.path, { raw: r.handler })),
  ...procedures.map(([name, { _def: { meta } }]) =>
    route(meta!.openapi!.method, meta!.openapi!.path, { procedure: name.split(".") as [string, string], cachedByLibraryVersion: meta!.cachedByLibraryVersion }),
  ),
];

/** Answers of `cachedByLibraryVersion` routes, as sent; an old version's answers age out. */
const answers = new LRUCache<string, string>({ maxSize: 32 * 2 ** 20, sizeCalculation: (text) => text.length });
const libraryKey = (library: Library) => (library.kind === "personal" ? `user:${library.userId}` : `team:${library.teamId}`);

const callerOf = createCallerFactory(appRouter);

/**
 * Routes whose path matches. A literal segment ("batch", "export") is a fixed word: where a
 * literal route matches the path, parameter routes are not considered.
 */
function routesFor(path: string): Route[] {
  const matching = ROUTES.filter((r) => r.pattern.test(path));
  return matching.some((r) => r.literal) ? matching.filter((r) => r.literal) : matching;
}

const jsonText = (status: number, text: string, headers: Record<string, string> = {}): V1Answer => ({
  status,
  headers: { ...headers, "Content-Type": "application/json; charset=utf-8" },
  body: text,
});
const json = (status: number, body: unknown, headers: Record<string, string> = {}) => jsonText(status, JSON.stringify(body), headers);

function domainResponse(error: DomainError): V1Answer {
  const body = error.items ? { errors: error.items } : { error: error.message };
  return json(HTTP_STATUS[error.kind], body, error.headers);
}

function errorResponse(error: unknown, requestId: string): V1Answer {
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
async function readBody(req: V1Request): Promise<string | null> {
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
async function jsonBody(req: V1Request): Promise<{ value: Record<string, unknown> } | { refused: V1Answer }> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return { refused: json(415, { error: "Content-Type must be application/json" }) };
  }
  const text = await readBody(req);
  if (text === null) return { refused: json(413, { error: "The body must be at most 1 MiB" }) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { refused: domainResponse(new DomainError("invalid", "The body is not valid JSON")) };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { refused: domainResponse(new DomainError("invalid", "The body must be a JSON object")) };
  }
  return { value: value as Record<string, unknown> };
}

/** What the gate learned that every response of the request carries. */
type Meta = { rateLimitHeaders?: Record<string, string> };

const rateLimited = (retryAfter: number) => new DomainError("rate_limited", "Rate limit exceeded", undefined, { "Retry-After": String(retryAfter) });

/** A request with a missing or invalid key counts against its client address. */
async function countGuess(req: V1Request): Promise<void> {
  const decision = await take(`guess:${clientAddress(req.headers)}`, invalidKeyRule());
  if (!decision.allowed) throw rateLimited(decision.retryAfter);
}

/**
 * The gate, before any route: the key's shape and hash → its limits (token bucket and daily
 * quota, one atomic decision) → lookup → revoked / not yet active → tier → library. The limits
 * are taken before the lookup so that a burst is decided in the moment it arrives (see
 * below). The errors still come in the contract's order: 401 and 403 before 429.
 */
async function admit(req: V1Request, meta: Meta): Promise<Principal> {
  let presented: PresentedKey;
  try {
    presented = presentedKey(req.headers.get("x-api-key"));
  } catch (error) {
    await countGuess(req);
    throw error;
  }
  const rule = keyRule(presented.scope);
  const limiterKey = `key:${presented.hash}`;
  // The limits are asked for first, and decided while the key is looked up.
  const deciding = take(limiterKey, rule);
  // Let every request that has already arrived take its token before this one does its
  // database work (synchronous on SQLite): otherwise each request of a burst is decided only
  // after the previous ones were served, about 3 ms apart, and a burst of 50 spans more than
  // the 100 ms in which a business bucket refills one token.
  await nextTurn();
  let principal: Principal;
  try {
    principal = await authenticateApiKey(presented);
  } catch (error) {
    await deciding;
    if (isKeyGuess(error)) {
      await forget(limiterKey); // a key we never issued keeps no limiter state
      await countGuess(req);
    }
    throw error;
  }
  const decision = await deciding;
  meta.rateLimitHeaders = {
    "X-RateLimit-Limit": String(rule.dailyQuota),
    "X-RateLimit-Remaining": String(Math.max(0, rule.dailyQuota - decision.used)),
    "X-RateLimit-Reset": String(decision.resetAt),
  };
  if (!decision.allowed) throw rateLimited(decision.retryAfter);
  return principal;
}

async function dispatch(req: V1Request, requestId: string, meta: Meta): Promise<V1Answer> {
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

  const params = pathParams(matched, path);
  if (!params) return json(404, { error: "Not found" });
  if (matched.raw) {
    const response = await matched.raw(principal, params, url.searchParams);
    return { status: response.status, headers: Object.fromEntries(response.headers), body: response.body };
  }

  // The procedure's input, as trpc-to-openapi builds it: the JSON body, or the query string
  // (a repeated name gives an array), and the path's parameters over either.
  let input: Record<string, unknown>;
  if (method === "POST" || method === "PATCH" || method === "PUT") {
    const checked = await jsonBody(req);
    if ("refused" in checked) return checked.refused;
    input = { ...checked.value, ...params };
  } else {
    input = {};
    for (const name of new Set(url.searchParams.keys())) {
      const values = url.searchParams.getAll(name);
      input[name] = values.length === 1 ? values[0] : values;
    }
    Object.assign(input, params);
  }
  const cacheKey = matched.cachedByLibraryVersion ? `${libraryKey(principal.library)} ${principal.libraryVersion} ${matched.path} ${url.search}` : null;
  const cached = cacheKey === null ? undefined : answers.get(cacheKey);
  if (cached !== undefined) return jsonText(200, cached);
  const ctx: Context = { requestId, session: null, principal, resMeta: {} };
  const [group, name] = matched.procedure!;
  const text = JSON.stringify(await (callerOf(ctx) as unknown as Caller)[group][name](input));
  if (cacheKey !== null) answers.set(cacheKey, text);
  return jsonText(ctx.resMeta.status ?? 200, text);
}

/** The route's path parameters, decoded; null when one is not valid percent-encoding. */
function pathParams(matched: Route, path: string): Record<string, string> | null {
  const values = matched.pattern.exec(path)!.slice(1);
  const params: Record<string, string> = {};
  try {
    matched.params.forEach((name, i) => (params[name] = decodeURIComponent(values[i])));
  } catch {
    return null;
  }
  return params;
}

/** The single entry point of /v1, for the Node server. */
export async function answerV1(req: V1Request): Promise<V1Answer> {
  const requestId = randomUUID();
  const meta: Meta = {};
  let answer: V1Answer;
  try {
    answer = await dispatch(req, requestId, meta);
  } catch (error) {
    answer = errorResponse(error, requestId);
  }
  answer.headers["X-Request-Id"] = requestId;
  Object.assign(answer.headers, meta.rateLimitHeaders);
  return answer;
}

/** The same, as a Fetch handler: app/v1's route handler (`next dev`, serverless hosts). */
export async function handleV1(req: Request): Promise<Response> {
  const { status, headers, body } = await answerV1(req);
  return new Response(body, { status, headers });
}
