// Domain errors, and the one table that says what each becomes at every edge: the /v1 status
// (with the contract's `{"error"}` body), the plain answer of the pages' download routes,
// and the tRPC code of the pages' calls. Codes, not messages, decide: rewording a message
// changes no status and switches no limit off.
import { z } from "zod";

/** Every edge's answer for a code. `satisfies` below makes a missing or unknown code a compile error. */
type Mapping = {
  status: number;
  /** tRPC has no 410, 415, 413 or 503-for-retry of its own: the nearest code the pages understand. */
  trpc:
    | "BAD_REQUEST"
    | "UNAUTHORIZED"
    | "FORBIDDEN"
    | "NOT_FOUND"
    | "METHOD_NOT_SUPPORTED"
    | "CONFLICT"
    | "PRECONDITION_FAILED"
    | "UNPROCESSABLE_CONTENT"
    | "PAYLOAD_TOO_LARGE"
    | "UNSUPPORTED_MEDIA_TYPE"
    | "TOO_MANY_REQUESTS"
    | "SERVICE_UNAVAILABLE"
    | "INTERNAL_SERVER_ERROR";
};

export const ERROR_TABLE = {
  invalid: { status: 400, trpc: "BAD_REQUEST" },
  /** No x-api-key: counts as a key guess against the client address. */
  missing_key: { status: 401, trpc: "UNAUTHORIZED" },
  /** A key of the wrong shape or one we never issued: a key guess too. */
  invalid_key: { status: 401, trpc: "UNAUTHORIZED" },
  /** Revoked, not yet active, or not logged in. */
  unauthenticated: { status: 401, trpc: "UNAUTHORIZED" },
  forbidden: { status: 403, trpc: "FORBIDDEN" },
  not_found: { status: 404, trpc: "NOT_FOUND" },
  method_not_allowed: { status: 405, trpc: "METHOD_NOT_SUPPORTED" },
  conflict: { status: 409, trpc: "CONFLICT" },
  /** A dynamic create's own back-half (`code`) that another code has, or that a batch sends twice. */
  code_in_use: { status: 409, trpc: "CONFLICT" },
  gone: { status: 410, trpc: "NOT_FOUND" },
  /** A save whose editor saw an older version of the record (If-Unmodified-Since, the pages' forms). */
  precondition_failed: { status: 412, trpc: "PRECONDITION_FAILED" },
  /** An Idempotency-Key sent again with another request. */
  idempotency_mismatch: { status: 422, trpc: "UNPROCESSABLE_CONTENT" },
  payload_too_large: { status: 413, trpc: "PAYLOAD_TOO_LARGE" },
  unsupported_media_type: { status: 415, trpc: "UNSUPPORTED_MEDIA_TYPE" },
  rate_limited: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  /** A fault of ours: logged with the request id; the message shown is always "Internal error". */
  internal: { status: 500, trpc: "INTERNAL_SERVER_ERROR" },
  /** The database cannot be reached for a moment: worth a retry (Retry-After). */
  database_unavailable: { status: 503, trpc: "SERVICE_UNAVAILABLE" },
} as const satisfies Record<string, Mapping>;

export type DomainErrorCode = keyof typeof ERROR_TABLE;

export type BatchItemError = { index: number; error: string };
/** A problem of one line of a streamed body (a bundle), by its line number from 1. */
export type LineError = { line: number; error: string };

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** For a batch that fails validation: every invalid item by index. */
    readonly items?: BatchItemError[],
    /** Extra response headers (Retry-After, Allow). */
    readonly headers?: Record<string, string>,
    /** For a streamed body that fails its checks: every problem found, by line. */
    readonly lines?: LineError[],
  ) {
    super(message);
    this.name = "DomainError";
  }

  get status(): number {
    return ERROR_TABLE[this.code].status;
  }
}

export const notFound = (what = "Not found") => new DomainError("not_found", what);
export const invalid = (message: string) => new DomainError("invalid", message);

/** A missing or invalid key: these count against the client address (never decided by message). */
export const isKeyGuess = (error: unknown) =>
  error instanceof DomainError && (error.code === "missing_key" || error.code === "invalid_key");

/** The batch bodies' arrays (contract: "Routes"). */
const BATCH_FIELDS: readonly PropertyKey[] = ["qrcodes", "dynqrcodes", "ids"];

/**
 * A validation failure as the contract shapes it: issues inside a batch's items become
 * `errors` by index (every invalid item listed); any other issue is one `error`.
 */
export function fromZodIssues(issues: readonly { path: PropertyKey[]; message: string }[]): DomainError {
  // Only the batch arrays' items are listed by index: a rule inside one record (`targets[0]`) is one `error`.
  const isItemIssue = (issue: { path: PropertyKey[] }) =>
    issue.path.length >= 2 && BATCH_FIELDS.includes(issue.path[0]) && typeof issue.path[1] === "number";
  const top = issues.find((issue) => !isItemIssue(issue));
  if (top || issues.length === 0) return invalid(top?.message ?? "Invalid request");
  const byIndex = new Map<number, string>();
  for (const issue of issues) {
    const index = issue.path[1] as number;
    if (!byIndex.has(index)) byIndex.set(index, issue.message);
  }
  const items = [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([index, error]) => ({ index, error }));
  return new DomainError("invalid", "Some items of the batch are invalid", items);
}

/**
 * The domain error behind anything thrown, or null for a fault: a DomainError, one carried as
 * the `cause` of a wrapper (tRPC wraps what procedures throw), or a failed check of a
 * request's input by its zod schema at the edge.
 */
export function domainErrorOf(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (error instanceof z.core.$ZodError) return fromZodIssues(error.issues);
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof DomainError ? cause : null;
}
