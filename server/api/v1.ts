// The single entry point of /v1: request id → gate (./gate.ts: key, then rate limits) → the route table
// (server/api/routes.ts) → body checks → the route's procedure or raw handler → the contract's
// error body from the one error table (server/platform/errors.ts). The Node server and the route
// handler under app/v1 only call `answerV1` / `handleV1`.
import { randomUUID } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Principal } from "../keys/apiKeys";
import { libraryKey } from "../library/libraryKey";
import type { LastSeen } from "../library/staleSave";
import { DomainError } from "../platform/errors";
import { yieldToIo } from "../platform/event-loop";
import { jsonShapeProblem, readBytes, utf8TextInTurns } from "../http/body";
import { oneLargeBodyAtATime } from "../http/heavy-gate";
import { parseHttpDate } from "../http/http-date";
import { jsonAnswer, jsonText, toResponse, type Answer } from "../http/answer";
import { errorAnswer } from "../http/errors";
import { processSingleton } from "../platform/process-singleton";
import { servedHostsOf, servedOrigin } from "../platform/served-host";
import {
  claimIdempotencyKey,
  IDEMPOTENCY_HEADER,
  idempotencyKeyOf,
  REPLAYED_HEADER,
  requestHash,
} from "../idempotency";
import { logError } from "../platform/log";
import { countKeyRejection } from "../platform/metrics";
import { documentServedAt } from "./openapi";
import { canonicalPath, routesFor, type ProcedureRoute, type V1Route } from "./routes";
import type { Context } from "./trpc";
import { admit, type Meta, type V1Request } from "./gate";

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Answers of `cachedByLibraryVersion` routes, as the bytes sent (encoded once, not measured and
 * encoded again on every request), each in memory of its own (a small Buffer.from would hold
 * a shared 8 KiB block that the size does not count); an old version's answers age out.
 */
const answers = processSingleton(
  "v1.listAnswers",
  () => new LRUCache<string, Uint8Array>({ maxSize: 32 * 2 ** 20, sizeCalculation: (bytes) => bytes.byteLength }),
);

/** Bodies longer than this are decoded, parsed and checked each in a turn of its own (decoding a megabyte takes a few ms). */
const LARGE_BODY = 64 * 1024;

/** A JSON body's bytes: content type (415), size (413). */
async function jsonBodyBytes(req: V1Request): Promise<Buffer> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw new DomainError("unsupported_media_type", "Content-Type must be application/json");
  const bytes = await readBytes(req, MAX_BODY_BYTES);
  if (bytes === null) throw new DomainError("payload_too_large", "The body must be at most 1 MiB");
  return bytes;
}

/** Its text: UTF-8 (400). A large body's decoding (in slices), then its parse and checks, each hold the loop: other requests are served between. */
async function jsonBodyText(bytes: Buffer): Promise<string> {
  const text = await utf8TextInTurns(bytes);
  if (text.length > LARGE_BODY) await yieldToIo();
  return text;
}

/** A JSON body's syntax and shape (400). */
function jsonObject(text: string): Record<string, unknown> {
  const shape = jsonShapeProblem(text);
  if (shape) throw new DomainError("invalid", shape);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DomainError("invalid", "The body is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new DomainError("invalid", "The body must be a JSON object");
  return value as Record<string, unknown>;
}

/** A query string as an input object; each name at most once, and only the names the route takes. */
function queryInput(search: URLSearchParams, route: V1Route): Record<string, string> {
  const input: Record<string, string> = {};
  for (const [name, value] of search) {
    if (!route.queryNames.has(name)) throw new DomainError("invalid", `Unknown query parameter: ${name}`);
    if (name in input) throw new DomainError("invalid", `${name} must be given once`);
    input[name] = value;
  }
  return input;
}

/** The JSON body with the path's parameters: a body field that names one (`code`) is unknown, as any other. */
function withPathParams(body: Record<string, unknown>, params: Record<string, string>): Record<string, unknown> {
  const clash = Object.keys(params).find((name) => name in body);
  if (clash) throw new DomainError("invalid", `Unknown field: ${clash}`);
  return { ...body, ...params };
}

/** The optional If-Unmodified-Since precondition (README, "Stale saves"): an HTTP-date, or a 400 rather than a save left unguarded. */
function lastSeenOf(headers: V1Request["headers"]): LastSeen | undefined {
  const value = headers.get(UNMODIFIED_SINCE);
  if (value === null) return undefined;
  const ms = headers.repeated?.(UNMODIFIED_SINCE) ? null : parseHttpDate(value.trim());
  if (ms === null)
    throw new DomainError("invalid", "If-Unmodified-Since must be one HTTP-date such as Sun, 06 Nov 1994 08:49:37 GMT");
  return { updatedAt: new Date(ms), from: "header" };
}
const UNMODIFIED_SINCE = "if-unmodified-since";

/** Calls the route's procedure directly (no caller proxy): its middleware, input check and resolver. */
function callProcedure(route: ProcedureRoute, ctx: Context, input: unknown): Promise<unknown> {
  return route.procedure({
    ctx,
    getRawInput: async () => input,
    path: route.name,
    type: route.procedure._def.type,
    signal: undefined,
    batchIndex: 0,
  });
}

async function dispatch(req: V1Request, requestId: string, meta: Meta): Promise<Answer> {
  const url = new URL(req.url);
  const path = url.pathname.slice("/v1".length) || "/";
  const method = req.method.toUpperCase();
  // One spelling per route: `/V1/...` and a trailing slash name the canonical path, not serve it.
  const canonical = canonicalPath(url.pathname);
  if (canonical !== url.pathname) {
    meta.route = "/v1/{unknown}";
    throw new DomainError("not_found", `Not found: the path is ${canonical}`);
  }

  if (path === "/openapi.json") {
    meta.route = "/v1/openapi.json";
    if (method !== "GET" && method !== "HEAD")
      throw new DomainError("method_not_allowed", "Method not allowed", undefined, { Allow: "GET" });
    return jsonAnswer(200, documentServedAt(servedOrigin(req.headers)));
  }

  const candidates = routesFor(path);
  // The route template, for labels and logs: never the raw path.
  meta.route = candidates.length > 0 ? `/v1${candidates[0].path}` : "/v1/{unknown}";
  let principal: Principal;
  try {
    principal = await admit(req, meta);
  } catch (error) {
    if (error instanceof DomainError && error.code !== "rate_limited") countKeyRejection(error.code);
    throw error;
  }

  if (candidates.length === 0) throw new DomainError("not_found", "Not found");
  // HEAD is answered wherever GET is, without the body.
  const matched = candidates.find((r) => r.method === (method === "HEAD" ? "GET" : method));
  if (!matched) {
    const allow = [...new Set(candidates.map((r) => r.method))].join(", ");
    throw new DomainError("method_not_allowed", `Method not allowed: use ${allow}`, undefined, { Allow: allow });
  }

  const params = pathParams(matched, path);
  if (!params) throw new DomainError("not_found", "Not found");
  if (matched.kind === "raw")
    return matched.answer(principal, params, queryInput(url.searchParams, matched), {
      contentType: req.headers.get("content-type"),
      stream: req.body as AsyncIterable<Uint8Array> | null,
    });
  const query = queryInput(url.searchParams, matched);

  const hasBody = (method === "POST" || method === "PATCH") && !matched.noBody;
  const body = hasBody ? await jsonBodyBytes(req) : null;
  // A large body's work waits for the one before it (server/http/heavy-gate.ts).
  return oneLargeBodyAtATime(body?.byteLength ?? 0, async () =>
    answerProcedure(
      req,
      { requestId, url, path, method, matched, params, query, principal },
      body ? await jsonBodyText(body) : null,
    ),
  );
}

type Matched = {
  requestId: string;
  url: URL;
  path: string;
  method: string;
  matched: ProcedureRoute;
  params: Record<string, string>;
  query: Record<string, string>;
  principal: Principal;
};

/** A procedure route's answer, its body (null: the route takes none) read: run once, or replayed for its Idempotency-Key. */
async function answerProcedure(
  req: V1Request,
  { requestId, url, path, method, matched, params, query, principal }: Matched,
  body: string | null,
): Promise<Answer> {
  const hasBody = body !== null;
  const bodyText = body ?? "";
  if (req.headers.repeated?.(IDEMPOTENCY_HEADER))
    throw new DomainError("invalid", "Send one Idempotency-Key header, not several");
  const key = method === "GET" || method === "HEAD" ? null : idempotencyKeyOf(req.headers.get(IDEMPOTENCY_HEADER));
  // The procedure's input, as the OpenAPI document describes it: the JSON body, or the query
  // string, and the path's parameters over either.
  // The hosts the request reached matter only to destinations, which only a body names.
  const ctx = {
    requestId,
    session: null,
    principal,
    servedHosts: hasBody ? servedHostsOf(req.headers) : undefined,
    lastSeen: matched.unmodifiedSince ? lastSeenOf(req.headers) : undefined,
  };
  const run = async () => {
    const input = hasBody ? withPathParams(jsonObject(bodyText), params) : { ...query, ...params };
    const large = bodyText.length > LARGE_BODY;
    if (large) await yieldToIo();
    return callRoute(matched, ctx, url, input, large);
  };
  if (key === null) return run();

  // An Idempotency-Key: claimed before the procedure runs; a retry gets the first answer.
  const claim = await claimIdempotencyKey(
    { library: libraryKey(principal.library), ownerId: principal.userId },
    key,
    requestHash(method, `${path}${url.search}`, bodyText),
  );
  if (claim.replay) return jsonText(claim.replay.status, claim.replay.body, { [REPLAYED_HEADER]: "true" });
  let answer: Answer | null = null;
  try {
    answer = await run();
    return answer;
  } finally {
    // A write that succeeded is answered even if its answer cannot be kept: the claim then
    // expires after a minute, and a later retry runs again (README, "Idempotent retries").
    await claim
      .finish(answer && typeof answer.body === "string" ? { status: answer.status, body: answer.body } : null)
      .catch((error) => logError("idempotency.finish_failed", { requestId }, error));
  }
}

/**
 * A procedure route's answer: its list page from memory when the library has not changed, else
 * its procedure's. `large`: the request's body was; its answer (a batch's records) is checked
 * and encoded in turns of their own.
 */
async function callRoute(
  matched: ProcedureRoute,
  ctx: Context & { principal: Principal },
  url: URL,
  input: Record<string, unknown>,
  large = false,
): Promise<Answer> {
  const { principal } = ctx;
  const cacheKey = matched.cachedByLibraryVersion
    ? `${libraryKey(principal.library)} ${principal.libraryVersion} ${matched.path} ${url.search}`
    : null;
  const cached = cacheKey === null ? undefined : answers.get(cacheKey);
  if (cached !== undefined) return jsonText(200, cached);
  let accepted = false;
  const result = await callProcedure(matched, { ...ctx, accept: () => (accepted = true) }, input);
  if (large) await yieldToIo();
  const text = JSON.stringify(result);
  if (cacheKey === null) return jsonText(accepted ? 202 : matched.successStatus, text);
  const bytes = new TextEncoder().encode(text);
  answers.set(cacheKey, bytes);
  return jsonText(matched.successStatus, bytes);
}

/**
 * The route's path parameters, decoded; null when one is not valid percent-encoding, or holds
 * a control character: no id has one, and PostgreSQL refuses a NUL in text (a 500, found by the
 * fuzz suite), so such a path names no record.
 */
function pathParams(matched: { pattern: RegExp; params: string[] }, path: string): Record<string, string> | null {
  const values = matched.pattern.exec(path)!.slice(1);
  const params: Record<string, string> = {};
  try {
    matched.params.forEach((name, i) => (params[name] = decodeURIComponent(values[i])));
  } catch {
    return null;
  }
  return Object.values(params).some((value) => /[\u0000-\u001f]/.test(value)) ? null : params;
}

/** The single entry point of /v1, for the Node server. */
export async function answerV1(req: V1Request): Promise<Answer> {
  const requestId = randomUUID();
  const meta: Meta = {};
  let answer: Answer;
  try {
    answer = await dispatch(req, requestId, meta);
  } catch (error) {
    answer = errorAnswer(error, requestId);
  }
  answer.headers["X-Request-Id"] = requestId;
  Object.assign(answer.headers, meta.rateLimitHeaders);
  answer.route = meta.route ?? "/v1/{unknown}";
  return answer;
}

/** The same, as a Fetch handler: app/v1's route handler (`next dev`, serverless hosts). */
export async function handleV1(req: Request): Promise<Response> {
  return toResponse(await answerV1(req));
}
