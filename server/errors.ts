// Domain errors, and the one table that maps them to HTTP statuses.
export type DomainErrorKind =
  | "invalid" // bad input
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "gone"
  | "conflict"
  | "rate_limited";

export const HTTP_STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  gone: 410,
  conflict: 409,
  rate_limited: 429,
};

export type BatchItemError = { index: number; error: string };

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** For a batch that fails validation: every invalid item by index. */
    readonly items?: BatchItemError[],
    /** Extra response headers (Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const notFound = (what = "Not found") => new DomainError("not_found", what);
export const invalid = (message: string) => new DomainError("invalid", message);
