// The gate of /v1, before any route: the key a request presents, its limits and its lookup
// (401 and 403 before 429, as the contract orders them); /mcp asks its key checks alone.
import { randomUUID } from "node:crypto";
import { clientAddress } from "../platform/client-address";
import { authenticateApiKey, presentedKey, type PresentedKey, type Principal } from "../keys/apiKeys";
import { DomainError, isKeyGuess } from "../platform/errors";
import type { Answer } from "../http/answer";
import { errorAnswer } from "../http/errors";
import { rateLimitHeaders } from "../http/rate-limit-headers";
import { forget, invalidKeyRule, keyRule, take } from "../rate-limit";
import { countKeyRejection, countRateLimited } from "../platform/metrics";

/** What /v1 needs of a request: a Fetch `Request` is one; the Node server makes a lighter one. */
export type V1Request = {
  method: string;
  /** Absolute. */
  url: string;
  /** `repeated`: the header was sent more than once (a Fetch `Headers` joins them with ", " and cannot tell). */
  headers: { get(name: string): string | null; repeated?(name: string): boolean };
  body: ReadableStream<Uint8Array> | null;
};

/** What the gate learned that every response of the request carries, and the route template (metrics, logs). */
export type Meta = { rateLimitHeaders?: Record<string, string>; route?: string };

const rateLimited = (scope: "personal" | "business" | "invalid_key", retryAfter: number) => {
  countRateLimited(scope);
  return new DomainError("rate_limited", "Rate limit exceeded", undefined, { "Retry-After": String(retryAfter) });
};

/** A request with a missing or invalid key counts against its client address. */
async function countGuess(req: Pick<V1Request, "headers">): Promise<void> {
  const decision = await take(`guess:${clientAddress(req.headers)}`, invalidKeyRule());
  if (!decision.allowed) throw rateLimited("invalid_key", decision.retryAfter);
}

/**
 * The gate, before any route: the key's shape and hash → its limits (token bucket and daily
 * quota, one atomic decision) → lookup → revoked / not yet active → tier → library. The limits
 * are taken before the lookup so that a burst is decided in the moment it arrives (see
 * below). The errors still come in the contract's order: 401 and 403 before 429.
 */
export async function admit(req: V1Request, meta: Meta): Promise<Principal> {
  const presented = await presentedOf(req);
  const rule = keyRule(presented.scope);
  const limiterKey = `key:${presented.hash}`;
  // The limits are asked for first, and decided while the key is looked up. Both are done
  // once for all the requests that arrived in the turn (in process at arrival, on Redis and
  // the lookup in batches at the turn's end), so a burst is decided in the moment it arrives.
  // Decided one after another, each after the previous request was served (the lookup is
  // synchronous on SQLite), the requests of a burst of 50 were about 3 ms apart: more than
  // the 100 ms in which a business bucket refills one token.
  const deciding = take(limiterKey, rule);
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
  meta.rateLimitHeaders = rateLimitHeaders(rule, decision);
  if (!decision.allowed) throw rateLimited(presented.scope, decision.retryAfter);
  return principal;
}

/** The key a request presents (401 when none, several or a malformed one: counted against its address). */
async function presentedOf(req: Pick<V1Request, "headers">): Promise<PresentedKey> {
  try {
    const header = req.headers.get("x-api-key");
    // Several headers arrive joined with ", ": a key never holds a comma.
    if (req.headers.repeated?.("x-api-key") || header?.includes(","))
      throw new DomainError("invalid_key", "Send one x-api-key header, not several");
    return presentedKey(header);
  } catch (error) {
    await countGuess(req);
    throw error;
  }
}

/**
 * The gate's key checks without its limits, answered as /v1 answers them (401, 403), or null for
 * a key that may be used: /mcp asks it before any MCP work, and each of its tool calls then passes
 * the whole gate, limits included (server/api/mcp.ts).
 */
export async function keyRefusal(req: Pick<V1Request, "headers">): Promise<Answer | null> {
  try {
    const presented = await presentedOf(req);
    await authenticateApiKey(presented).catch(async (error) => {
      if (isKeyGuess(error)) await countGuess(req);
      throw error;
    });
    return null;
  } catch (error) {
    if (error instanceof DomainError && error.code !== "rate_limited") countKeyRejection(error.code);
    const requestId = randomUUID();
    const answer = errorAnswer(error, requestId);
    answer.headers["X-Request-Id"] = requestId;
    return answer;
  }
}
