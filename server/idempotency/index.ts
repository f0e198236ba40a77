// Idempotent retries of /v1 writes (contract: "Idempotent retries"), after Stripe's
// Idempotency-Key. The first request with a key claims a row (the unique index decides, on
// every instance), runs, and stores its answer if it was a 2xx; a retry with the same request
// gets that answer again, one with another request 422, one while the first runs 409. A claim
// whose request crashed expires after a minute, so the key is not stuck. Rows live 24 hours and
// are swept hourly by every instance.
import { createHash } from "node:crypto";
import { db, isUniqueViolation } from "../platform/db";
import { DomainError } from "../platform/errors";
import { timeOrderedId } from "../platform/ids";
import { logError } from "../platform/log";
import { processSingleton } from "../platform/process-singleton";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
const KEEP_MS = 24 * 60 * 60 * 1000;
const CLAIM_MS = 60 * 1000;
const SWEEP_MS = 60 * 60 * 1000;

/** Whose key it is: the library it acted on and the account that owns the API key. */
export type IdempotencyScope = { library: string; ownerId: string };
export type StoredAnswer = { status: number; body: string };
/** What the caller does with the request: run it (then `finish`), or answer what was stored. */
export type Claim = { replay: StoredAnswer } | { replay: null; finish: (answer: StoredAnswer | null) => Promise<void> };

/** The header's value, checked; null when the request carries none. */
export function idempotencyKeyOf(value: string | null): string | null {
  if (value === null) return null;
  if (!/^[\x20-\x7e]{1,255}$/.test(value))
    throw new DomainError("invalid", "Idempotency-Key must be 1 to 255 printable ASCII characters");
  return value;
}

/** What makes two requests "the same": method, path (with its query) and body. */
export const requestHash = (method: string, path: string, body: string) =>
  createHash("sha256").update(`${method}\n${path}\n${body}`).digest("hex");

const inProgress = () => new DomainError("conflict", "A request with this Idempotency-Key is in progress");

/** Claims `key` for a request, or says how to answer it instead (422, 409, or the stored answer). */
export async function claimIdempotencyKey(scope: IdempotencyScope, key: string, hash: string): Promise<Claim> {
  startSweeping();
  const now = Date.now();
  for (let attempt = 0; attempt < 2; attempt++) {
    const id = timeOrderedId("idem");
    try {
      await db.idempotencyKey.create({
        data: {
          id,
          ...scope,
          key,
          requestHash: hash,
          claimedUntil: new Date(now + CLAIM_MS),
          expiresAt: new Date(now + KEEP_MS),
        },
      });
      return { replay: null, finish: (answer) => finish(id, answer) };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const row = await db.idempotencyKey.findUnique({ where: { library_ownerId_key: { ...scope, key } } });
    if (!row) continue; // answered with a failure and removed meanwhile: claim it again
    if (row.expiresAt.getTime() <= now) {
      // Older than 24 hours: a new request, whatever it is.
      await db.idempotencyKey.deleteMany({ where: { id: row.id, expiresAt: row.expiresAt } });
      continue;
    }
    if (row.requestHash !== hash)
      throw new DomainError("idempotency_mismatch", "Idempotency-Key was used with a different request");
    if (row.status !== null) return { replay: { status: row.status, body: row.body ?? "" } };
    if (row.claimedUntil.getTime() > now) throw inProgress();
    // The first request crashed before answering: take its claim over (one taker wins).
    const taken = await db.idempotencyKey.updateMany({
      where: { id: row.id, status: null, claimedUntil: row.claimedUntil },
      data: { claimedUntil: new Date(now + CLAIM_MS) },
    });
    if (taken.count === 1) return { replay: null, finish: (answer) => finish(row.id, answer) };
    throw inProgress();
  }
  throw inProgress();
}

/** Keeps a 2xx answer for the retries; after anything else the key is free again. */
async function finish(id: string, answer: StoredAnswer | null): Promise<void> {
  if (answer && answer.status >= 200 && answer.status < 300)
    await db.idempotencyKey.update({ where: { id }, data: { status: answer.status, body: answer.body } });
  else await db.idempotencyKey.deleteMany({ where: { id } });
}

/** Removes the keys older than 24 hours; returns how many. */
export async function removeExpiredIdempotencyKeys(now = Date.now()): Promise<number> {
  return (await db.idempotencyKey.deleteMany({ where: { expiresAt: { lte: new Date(now) } } })).count;
}

/** The hourly sweep, started by the first claim of the process. */
function startSweeping(): void {
  processSingleton("idempotency.sweep", () =>
    setInterval(() => {
      // On failure the next sweep tries again; an expired row is also replaced when its key comes back.
      removeExpiredIdempotencyKeys().catch((error) => logError("idempotency.sweep_failed", {}, error));
    }, SWEEP_MS).unref(),
  );
}
