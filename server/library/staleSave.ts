// Two editors of one code: a save names the record's updated_at its editor saw, and is refused,
// changing nothing, when the record changed since (issue 39; README, "Stale saves"). The pages'
// forms send what they loaded, to the millisecond; /v1 takes it as If-Unmodified-Since, an
// HTTP-date, to the second (RFC 9110, 13.1.4).
import { DomainError } from "../platform/errors";

export type LastSeen = { updatedAt: Date; from: "page" | "header" };

const REFUSALS: Record<LastSeen["from"], string> = {
  page: "This code was changed since you opened it — reload",
  header: "The code was changed after If-Unmodified-Since: read it again, then retry",
};

export const staleSave = (seen: LastSeen) => new DomainError("precondition_failed", REFUSALS[seen.from]);

/** Refuses a save when the record's `updatedAt` is later than what its editor saw (an HTTP-date has whole seconds). */
export function refuseStale(updatedAt: Date, seen: LastSeen | undefined): void {
  if (!seen) return;
  const stored = seen.from === "header" ? Math.floor(updatedAt.getTime() / 1000) * 1000 : updatedAt.getTime();
  if (stored > seen.updatedAt.getTime()) throw staleSave(seen);
}
