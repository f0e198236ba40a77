// Anything thrown, as the contract's error answer: a domain error by the one table
// (server/platform/errors.ts); an unreachable database as 503 with Retry-After; any other fault as a
// logged 500 "Internal error" with the request id.
import { isDatabaseUnreachable } from "../platform/db";
import { DomainError, domainErrorOf } from "../platform/errors";
import { logError } from "../platform/log";
import { jsonAnswer, type Answer } from "./answer";

/** The contract's error body for anything thrown: the error table's status, or a logged fault. */
export function errorAnswer(error: unknown, requestId: string): Answer {
  const domain = domainErrorOf(error) ?? faultOf(error, requestId);
  const list = domain.items ?? domain.lines;
  const body = list ? { errors: list } : { error: domain.message };
  return jsonAnswer(domain.status, body, domain.headers);
}

/** A fault: logged with the request id, and answered without its details. */
function faultOf(error: unknown, requestId: string): DomainError {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  if (isDatabaseUnreachable(cause)) {
    logError("v1.database_unavailable", { requestId }, cause);
    return new DomainError("database_unavailable", "The database is unavailable for a moment: try again", undefined, {
      "Retry-After": "1",
    });
  }
  logError("v1.internal_error", { requestId }, cause);
  return new DomainError("internal", "Internal error");
}
