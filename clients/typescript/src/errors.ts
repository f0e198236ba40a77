// The contract's error answers as exceptions: every non-2xx answer of /v1 has the body
// {"error": "<message>"} or, for a batch that failed validation, {"errors": [{index, error}]}.

/** A batch's refused item by its index; a bundle's problem also by its line (from 1; `index` is line - 1). */
export type ItemError = { index: number; error: string; line?: number };

/** Any error answer of the API: its status, message, request id, and a batch's per-item errors. */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    message: string,
    /** Every invalid item of a batch (by index in the request), when the batch was refused. */
    readonly errors: ItemError[] = [],
    /** X-Request-Id of the answer: quote it when you report a problem. */
    readonly requestId: string | null = null,
    /** Retry-After of the answer, in seconds, when it had one. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}
/** 400: the request (or some items of a batch: see `errors`) broke a rule. */
export class InvalidRequestError extends ApiError {
  override name = "InvalidRequestError";
}
/** 401: missing, invalid, revoked or not yet active key. */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
}
/** 403: no API access on this plan, or the action needs a team admin. */
export class ForbiddenError extends ApiError {
  override name = "ForbiddenError";
}
/** 404 (or 410): not in the key's library. */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}
/** 409 or 422: an Idempotency-Key still in progress, or used with another request. */
export class IdempotencyError extends ApiError {
  override name = "IdempotencyError";
}
/** 412: the record changed after the call's If-Unmodified-Since; nothing was changed. */
export class PreconditionFailedError extends ApiError {
  override name = "PreconditionFailedError";
}
/** 429: the key's bucket or daily quota is spent (see `retryAfter`). */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
}
/** 503: the database is unavailable for a moment (see `retryAfter`). */
export class UnavailableError extends ApiError {
  override name = "UnavailableError";
}

const BY_STATUS: Record<number, typeof ApiError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  403: ForbiddenError,
  404: NotFoundError,
  409: IdempotencyError,
  410: NotFoundError,
  412: PreconditionFailedError,
  422: IdempotencyError,
  429: RateLimitError,
  503: UnavailableError,
};

/** Retry-After in whole seconds, or null when absent or not a number. */
export function retryAfterSeconds(response: Response): number | null {
  const value = response.headers.get("retry-after");
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

/** The typed exception for an error answer and its parsed body (if it was JSON). */
export function apiError(response: Response, body: unknown): ApiError {
  const shape = (body ?? {}) as { error?: unknown; errors?: unknown };
  const errors: ItemError[] = Array.isArray(shape.errors)
    ? (shape.errors as ({ error: string } & ({ index: number } | { line: number }))[]).map((e) =>
        "line" in e ? { index: e.line - 1, line: e.line, error: e.error } : e,
      )
    : [];
  const message =
    typeof shape.error === "string"
      ? shape.error
      : errors.length > 0
        ? errors[0].line !== undefined
          ? `${errors.length} problem${errors.length === 1 ? "" : "s"} in the bundle: ${errors.map((e) => `line ${e.line}: ${e.error}`).join("; ")}`
          : `${errors.length} invalid item${errors.length === 1 ? "" : "s"} in the batch: ${errors.map((e) => `#${e.index}: ${e.error}`).join("; ")}`
        : `HTTP ${response.status}${typeof body === "string" && body ? `: ${body.slice(0, 200)}` : ""}`;
  const Type = BY_STATUS[response.status] ?? ApiError;
  return new Type(response.status, message, errors, response.headers.get("x-request-id"), retryAfterSeconds(response));
}
