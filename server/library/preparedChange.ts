// A change to one record checked and prepared outside any transaction, written by `write` in the
// transaction it is given: a single PATCH writes one in its own, a batch PATCH all of its items
// in one (all or nothing), each with its events in the same outbox transaction.
import type { Tx } from "../platform/db";
import { changeWithEvents, type PendingEvent } from "../webhooks";
import type { Library } from "./library";
import { externalIdRace } from "./recordExtras";

export type Written<R> = { result: R; events: PendingEvent[] };

export type PreparedChange<R> = {
  /** Whether a writer's part of the change waits for an admin (/v1 answers 202). */
  held: boolean;
  /** The record's table and row, with the external_id the change gives it (undefined: unchanged). */
  claim: { table: "staticCode" | "dynamicCode"; self: string; externalId: string | null | undefined };
  write: (tx: Tx) => Promise<Written<R>>;
  /** Once committed: what other instances must learn (a dynamic code's cached resolution). */
  committed?: () => Promise<void>;
};

/**
 * Writes every prepared change in one transaction, or none: their records in order. A unique
 * index's refusal (another request took an external_id after the checks) is the 409 it is,
 * found again once the transaction is over.
 */
export async function applyChanges<R>(
  library: Library,
  changes: PreparedChange<R>[],
  batch: string | null = null,
): Promise<R[]> {
  const claims = changes.map((change) => change.claim);
  const records = await changeWithEvents(library, async (tx) => {
    const written: Written<R>[] = [];
    for (const change of changes) written.push(await change.write(tx));
    return { result: written.map((w) => w.result), events: written.flatMap((w) => w.events) };
  }).catch(externalIdRace(claims[0]?.table ?? "staticCode", library, claims, batch));
  for (const change of changes) await change.committed?.();
  return records;
}

/** Writes one prepared change in its own transaction. */
export async function applyChange<R>(
  library: Library,
  change: PreparedChange<R>,
): Promise<{ record: R; held: boolean }> {
  const [record] = await applyChanges(library, [change]);
  return { record, held: change.held };
}
