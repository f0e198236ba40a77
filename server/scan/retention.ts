// SCAN_EVENT_RETENTION_DAYS: raw scan events older than the setting are deleted, a thousand at a
// time (short write transactions: the scan writer never waits long for SQLite's lock), while the
// rollups that analytics read keep counting them. Record ids begin with their time
// (server/ids.ts), so the primary key leads to the oldest events without an index on the time.
// On PostgreSQL this deletes rows too, until ScanEvent is partitioned by month (then whole
// partitions are dropped instead).
import { storedTime, writeTransaction, type DialectSql } from "../db";
import { now } from "../clock";
import { env } from "../env";
import { logError } from "../log";
import { processSingleton } from "../process-singleton";

const BATCH = 1000;
const SWEEP_EVERY_MS = 3600 * 1000;
const DAY_MS = 86_400_000;

const oldest = (id: string, before: string) => `DELETE FROM "ScanEvent" WHERE "id" IN (
    SELECT "id" FROM "ScanEvent" WHERE "id" < ${id} AND "scannedAt" < ${before} ORDER BY "id" LIMIT ${BATCH}) RETURNING "id"`;
/** A batch of the oldest events, for one row of parameters (the id and the time before which they go; see RunEach in server/db.ts). */
const DELETE_OLDEST: DialectSql = { sqlite: oldest("?", "?"), postgres: oldest("($1::jsonb -> 0 ->> 0)", "($1::jsonb -> 0 ->> 1)::timestamp(3)") };

/** Deletes the raw events older than `days` before `at`, a batch at a time; returns how many went. */
export async function sweepScanEvents(days: number, at: Date = now()): Promise<number> {
  const cutoff = at.getTime() - days * DAY_MS;
  const params = [`scan_${cutoff.toString(36).padStart(9, "0")}`, storedTime(cutoff)];
  let removed = 0;
  for (;;) {
    const gone = (await writeTransaction((runEach) => runEach(DELETE_OLDEST, [params]))).length;
    removed += gone;
    if (gone < BATCH) return removed;
  }
}

const sweeper = processSingleton("scans.retention", () => ({ timer: null as NodeJS.Timeout | null }));

/** The hourly sweep of the production server (server/http-server.ts), when SCAN_EVENT_RETENTION_DAYS is set. */
export function startScanRetention(): void {
  const days = env.scanEventRetentionDays;
  if (days === null || sweeper.timer) return;
  const sweep = () => void sweepScanEvents(days).catch((error) => logError("scans.retention_failed", {}, error));
  sweeper.timer = setInterval(sweep, SWEEP_EVERY_MS);
  sweeper.timer.unref();
  sweep();
}
