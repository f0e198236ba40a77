// The contract's error bodies and the answers' headers, as OpenAPI components and responses
// (server/api/openapi.ts puts them on every operation).
import { MAX_BATCH } from "../library/validation";

// Named ApiError, not Error: generated clients would shadow the language's own Error with it.
export const errorSchema = {
  type: "object",
  required: ["error"],
  additionalProperties: false,
  properties: { error: { type: "string", description: "What was wrong, in words a person can act on." } },
};
/** A body's problems, each by where it stands (`index` in a batch, `line` in a stream) with its first problem. */
const problemsSchema = (description: string, place: Record<string, object>) => ({
  type: "object",
  required: ["errors"],
  additionalProperties: false,
  properties: {
    errors: {
      type: "array",
      description,
      items: {
        type: "object",
        required: [...Object.keys(place), "error"],
        additionalProperties: false,
        properties: { ...place, error: { type: "string" } },
      },
    },
  },
});
export const batchErrorSchema = problemsSchema(
  "Every invalid item of the batch, by its index, with its first problem.",
  { index: { type: "integer", minimum: 0, maximum: MAX_BATCH - 1 } },
);
/** A streamed body's problems (the bundle's), by line. */
export const lineErrorsSchema = problemsSchema(
  "The problems found (at most 100), by line number from 1: nothing was written.",
  { line: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
);

/** Integer headers: counts and epoch seconds, never negative. */
const header = (description: string, type: "string" | "integer" = "string") => ({
  description,
  schema: type === "integer" ? { type, minimum: 0, maximum: Number.MAX_SAFE_INTEGER } : { type },
});
export const HEADERS = {
  "X-Request-Id": header("This request's id: quote it when you report a problem."),
  "X-RateLimit-Limit": header("The key's requests per UTC day.", "integer"),
  "X-RateLimit-Remaining": header("What is left of them today.", "integer"),
  "X-RateLimit-Reset": header("When the day's quota is full again: epoch seconds of the next 00:00 UTC.", "integer"),
  "RateLimit-Policy": header(
    'Both limits of the key (IETF draft-ietf-httpapi-ratelimit-headers): the bucket as its capacity over the seconds it takes to fill, and the daily quota, e.g. `"burst";q=20;w=2, "daily";q=10000;w=86400`.',
  ),
  RateLimit: header(
    'The limit that refused, or else the one with fewer requests left: `"burst";r=0;t=1` (`r` requests left, `t` seconds until it is full again, or until the request could pass).',
  ),
  "Retry-After": header("Seconds to wait before trying again.", "integer"),
  Allow: header("The methods this path answers."),
  "Content-Disposition": header('attachment; filename="…-YYYY-MM-DD.csv"'),
  "Idempotent-Replayed": header(
    "`true` when this is the stored answer of an earlier request with the same Idempotency-Key.",
  ),
};
/** Accepted by every write (contract: "Idempotent retries"). */
export const IDEMPOTENCY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    'Makes a retry safe: the first request with a key runs; the same request again within 24 hours gets the first answer (with Idempotent-Replayed: true) and changes nothing. Per library and key owner. Only 2xx answers are kept. Use a fresh key per intended change, e.g. a UUID or `order-4711-create`; "Try it out" on /docs sends a fresh one when this is left empty.',
  // No example: Swagger UI would pre-fill it, and a second Execute would reuse the key (422).
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
};
/** The optional precondition of a PATCH (README, "Stale saves"). */
export const UNMODIFIED_SINCE_PARAMETER = {
  name: "If-Unmodified-Since",
  in: "header",
  required: false,
  description:
    "Refuses a stale save: the record's updated_at as an HTTP-date (whole seconds). If the record changed after it, the answer is 412 and nothing changes; read it again (its updated_at) and retry. A value that is not an HTTP-date is 400.",
  // The three forms RFC 9110 reads: IMF-fixdate, RFC 850 and asctime.
  schema: { type: "string", maxLength: 40, pattern: "^[A-Za-z]{3,9},? [0-9A-Za-z :-]{15,29}$" },
  example: "Sat, 21 Nov 2026 09:30:00 GMT",
};
export type HeaderName = keyof typeof HEADERS;
export const headers = (...names: HeaderName[]) => ({
  headers: Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }])),
});
/** Every answer of an authenticated request carries its id and the key's quota. */
export const ANSWERED = [
  "X-Request-Id",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "RateLimit-Policy",
  "RateLimit",
] as const;

export const jsonError = (
  description: string,
  example: string,
  names: readonly HeaderName[],
  batch?: { index: number; error: string } | { line: number; error: string },
) => ({
  description,
  ...headers(...names),
  content: {
    "application/json": {
      schema: batch
        ? {
            oneOf: [
              { $ref: "#/components/schemas/ApiError" },
              { $ref: `#/components/schemas/${"line" in batch ? "LineErrors" : "BatchError"}` },
            ],
          }
        : { $ref: "#/components/schemas/ApiError" },
      examples: {
        error: { value: { error: example } },
        ...(batch
          ? {
              batch: {
                summary: `A ${"line" in batch ? "body" : "batch"} with invalid items`,
                value: { errors: [batch] },
              },
            }
          : {}),
      },
    },
  },
});
