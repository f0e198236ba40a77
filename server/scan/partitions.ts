// PostgreSQL keeps ScanEvent partitioned by month of "scannedAt" (migration
// `scan_event_partitions`), so that recording writes to a month's small indexes whatever the
// table holds, and retention drops whole months instead of deleting rows. The server creates
// this month's partition and the next two at start and every hour. A scan outside them (a far
// past or future time) lands in the default partition, so no scan is ever refused; creating
// its month later moves it there. SQLite has no partitions.
import { db, dialect, storedTime } from "../platform/db";

/** Months created ahead of the current one. */
export const MONTHS_AHEAD = 2;
const PARENT = "ScanEvent";
export const DEFAULT_PARTITION = "ScanEvent_default";

/** The first instant (UTC) of the month `offset` months after the month of `at`. */
const monthStart = (at: Date, offset = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
/** Partitions are named by their month (`ScanEvent_2026_11`): the name gives the range. */
const nameOf = (month: Date) =>
  `${PARENT}_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, "0")}`;
const monthOf = (name: string): Date | null => {
  const m = /^ScanEvent_(\d{4})_(\d{2})$/.exec(name);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)) : null;
};
/** A month's bound as a literal (timestamp(3) holds UTC instants: the offset is ignored). */
const bound = (at: Date) => `'${storedTime(at.getTime())}'`;

/** The month partitions that exist, oldest first. */
export async function scanPartitions(): Promise<{ name: string; month: Date }[]> {
  const rows = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"${PARENT}"'::regclass`,
  );
  return rows
    .map(({ name }) => ({ name, month: monthOf(name) }))
    .filter((p): p is { name: string; month: Date } => p.month !== null)
    .sort((a, b) => a.month.getTime() - b.month.getTime());
}

/**
 * Creates the partition of one month, in one transaction, unless another instance just did:
 * the default partition's scans of that month move into it (it is locked meanwhile, so none
 * can arrive there between the move and the attach, which checks that the default holds none
 * of the month). Whether it was created.
 */
async function createPartition(month: Date): Promise<boolean> {
  const name = nameOf(month);
  const [from, to] = [bound(month), bound(monthStart(month, 1))];
  return db.$transaction(async (tx) => {
    // One instance at a time (the lock ends with the transaction).
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('${PARENT} partitions'))`);
    const [{ present }] = await tx.$queryRawUnsafe<{ present: boolean }[]>(
      `SELECT to_regclass('"${name}"') IS NOT NULL AS present`,
    );
    if (present) return false;
    await tx.$executeRawUnsafe(`LOCK TABLE "${DEFAULT_PARTITION}" IN ACCESS EXCLUSIVE MODE`);
    await tx.$executeRawUnsafe(`CREATE TABLE "${name}" (LIKE "${PARENT}" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    await tx.$executeRawUnsafe(
      `WITH moved AS (DELETE FROM "${DEFAULT_PARTITION}" WHERE "scannedAt" >= ${from} AND "scannedAt" < ${to} RETURNING *) INSERT INTO "${name}" SELECT * FROM moved`,
    );
    await tx.$executeRawUnsafe(
      `ALTER TABLE "${PARENT}" ATTACH PARTITION "${name}" FOR VALUES FROM (${from}) TO (${to})`,
    );
    return true;
  });
}

/** Creates the partitions of the month of `at` and the MONTHS_AHEAD after it that are missing; their names. */
export async function ensureScanPartitions(at: Date): Promise<string[]> {
  if (dialect !== "postgres") return [];
  const existing = new Set((await scanPartitions()).map((p) => p.name));
  const created: string[] = [];
  for (let offset = 0; offset <= MONTHS_AHEAD; offset++) {
    const month = monthStart(at, offset);
    if (!existing.has(nameOf(month)) && (await createPartition(month))) created.push(nameOf(month));
  }
  return created;
}

/** Drops the month partitions whose every scan is before `cutoff`; their names. */
export async function dropScanPartitionsBefore(cutoff: Date): Promise<string[]> {
  if (dialect !== "postgres") return [];
  const dropped: string[] = [];
  for (const { name, month } of await scanPartitions()) {
    if (monthStart(month, 1).getTime() > cutoff.getTime()) break;
    await db.$executeRawUnsafe(`DROP TABLE IF EXISTS "${name}"`); // another instance may be dropping it too
    dropped.push(name);
  }
  return dropped;
}
