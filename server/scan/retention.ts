// The hourly upkeep of the raw scan events (ScanEvent). On PostgreSQL, the month partitions are
// created ahead (server/scan/partitions.ts). With SCAN_EVENT_RETENTION_DAYS, raw events older
// than the setting go while the rollups that analytics read keep counting them: on PostgreSQL
// whole months are dropped once every scan in them is older than the setting (so a month is
// kept up to a month longer than the setting), and the default partition's few old scans are
// deleted; on SQLite they are deleted a thousand at a time (short write transactions: the scan
// writer never waits long for SQLite's lock). Record ids begin with their time
// (server/platform/ids.ts), so the primary key leads to the oldest events without an index on the time.
import { dialect, storedTime, writeTransaction, type DialectSql } from "../platform/db";
import { now } from "../platform/clock";
import { firstIdAt } from "../platform/ids";
import { env } from "../platform/env";
import { logError } from "../platform/log";
import { processSingleton } from "../platform/process-singleton";
import { DEFAULT_PARTITION, dropScanPartitionsBefore, ensureScanPartitions } from "./partitions";

const BATCH = 1000;
const SWEEP_EVERY_MS = 3600 * 1000;
const DAY_MS = 86_400_000;

const oldest = (table: string, id: string, before: string) => `DELETE FROM "${table}" WHERE "id" IN (
    SELECT "id" FROM "${table}" WHERE "id" < ${id} AND "scannedAt" < ${before} ORDER BY "id" LIMIT ${BATCH}) RETURNING "id"`;
/** A batch of the oldest events, for one row of parameters (the id and the time before which they go; see RunEach in server/platform/db.ts). */
const DELETE_OLDEST: DialectSql = {
  sqlite: oldest("ScanEvent", "?", "?"),
  postgres: oldest(DEFAULT_PARTITION, "($1::jsonb -> 0 ->> 0)", "($1::jsonb -> 0 ->> 1)::timestamp(3)"),
};

/**
 * Removes the raw events older than `days` before `at`: how many rows were deleted (SQLite, and
 * PostgreSQL's default partition) and which month partitions were dropped (PostgreSQL).
 */
export async function sweepScanEvents(days: number, at: Date = now()): Promise<{ deleted: number; dropped: string[] }> {
  const cutoff = at.getTime() - days * DAY_MS;
  const dropped = await dropScanPartitionsBefore(new Date(cutoff));
  const params = [firstIdAt("scan", cutoff), storedTime(cutoff)];
  let deleted = 0;
  for (;;) {
    const gone = (await writeTransaction((runEach) => runEach(DELETE_OLDEST, [params]))).length;
    deleted += gone;
    if (gone < BATCH) return { deleted, dropped };
  }
}

const sweeper = processSingleton("scans.retention", () => ({ timer: null as NodeJS.Timeout | null }));

/** At start and every hour (server/http/server.ts): the partitions ahead, and the retention when SCAN_EVENT_RETENTION_DAYS is set. */
export function startScanRetention(): void {
  const days = env.scanEventRetentionDays;
  if (sweeper.timer || (days === null && dialect !== "postgres")) return;
  const sweep = async () => {
    await ensureScanPartitions(now()).catch((error) => logError("scans.partitions_failed", {}, error));
    if (days !== null) await sweepScanEvents(days).catch((error) => logError("scans.retention_failed", {}, error));
  };
  sweeper.timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  sweeper.timer.unref();
  void sweep();
}
