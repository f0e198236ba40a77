// A batch of scans written in one transaction, and what each new scan makes written with it:
// the table below lists the scan's consumers, in the order they run.
import { insertEach, writeTransaction, type RunEach } from "../platform/db";
import { recordScanCreated } from "../webhooks/outbox";
import { writeRollups } from "./rollups";
import { inKeyOrder, SCAN_COLUMNS, toRow, visitorOfDay, type BufferedScan, type ScanRow } from "./rows";

type Consumer = (runEach: RunEach, scans: ScanRow[]) => Promise<void>;

/**
 * The primary key decides which visitors are new for the day: the rows it lets in are
 * returned, and the first scan of each such visitor in the batch is the unique one.
 */
const markUniqueVisitors: Consumer = async (runEach, scans) => {
  const firstOfVisitor = new Map<string, ScanRow>();
  for (const scan of scans) if (!firstOfVisitor.has(scan.visitor)) firstOfVisitor.set(scan.visitor, scan);
  const visits = inKeyOrder(firstOfVisitor).map((s) => [s.dynamicCodeId, s.day, s.visitorHash]);
  const fresh = (await runEach(SQL.visits, visits)) as { dynamicCodeId: string; day: string; visitorHash: string }[];
  for (const v of fresh) firstOfVisitor.get(visitorOfDay(v.dynamicCodeId, v.day, v.visitorHash))!.unique = 1;
};

const storeEvents: Consumer = async (runEach, scans) => {
  await runEach(
    SQL.scans,
    scans.map((s) => SCAN_COLUMNS.map((column) => s[column])),
  );
};

/**
 * What a new scan writes, in this order, in its batch's transaction: its visitor-day mark
 * (which decides `unique`), the raw event, the rollups, and the `scan.created` outbox events of
 * libraries that subscribe to them.
 */
const CONSUMERS: Consumer[] = [markUniqueVisitors, storeEvents, writeRollups, recordScanCreated];

/**
 * Writes one batch in one transaction; the number of scans newly stored. A scan whose id is
 * already stored (a spool replayed after a crash that came between a batch's commit and its
 * checkpoint, or a batch tried again after a failure that came after its commit) is skipped
 * whole: its visitor mark, rollups and event were written with it.
 */
export async function writeScans(batch: BufferedScan[]): Promise<number> {
  if (batch.length === 0) return 0;
  const rows = batch.map(toRow);
  return writeTransaction(async (runEach) => {
    const stored = batch.every((scan) => scan.fresh)
      ? []
      : ((await runEach(SQL.stored, [storedCheck(rows)])) as { id: string }[]);
    const known = new Set(stored.map((s) => s.id));
    const scans = known.size === 0 ? rows : rows.filter((s) => !known.has(s.id));
    for (const consumer of CONSUMERS) await consumer(runEach, scans);
    return scans.length;
  });
}

/**
 * The parameters of the check for stored ids: the ids, and the first and last scan times of the
 * batch. A stored scan has the time it has here (the spool keeps it), so on PostgreSQL the check
 * reads only the month partitions of the batch (one, but at a month's turn), whatever the
 * table holds.
 */
function storedCheck(rows: ScanRow[]): string[] {
  let [first, last] = [rows[0].scannedAt, rows[0].scannedAt];
  for (const { scannedAt } of rows) {
    if (scannedAt < first) first = scannedAt;
    if (scannedAt > last) last = scannedAt;
  }
  return [JSON.stringify(rows.map((s) => s.id)), first, last];
}

/** A stored scan's insert (the bundle's import writes scans with it too). */
export const SCAN_INSERT = insertEach("ScanEvent", SCAN_COLUMNS, { scannedAt: "timestamp(3)", unique: "boolean" });

// Parameters bound per row on SQLite, one JSON parameter per statement on PostgreSQL (see
// RunEach in server/platform/db.ts): Prisma's createMany cost the event loop 100 ms for 500 rows.
const SQL = {
  // The batch's ids already stored, for a JSON array of ids in one parameter (as `subscribers`),
  // between the batch's first and last scan times (the partition key, on PostgreSQL).
  stored: {
    sqlite: `SELECT e."id" AS "id" FROM json_each(?) AS j JOIN "ScanEvent" e ON e."id" = j.value WHERE e."scannedAt" >= ? AND e."scannedAt" <= ?`,
    postgres: `SELECT e."id" AS "id" FROM jsonb_array_elements_text(($1::jsonb -> 0 ->> 0)::jsonb) AS j JOIN "ScanEvent" e ON e."id" = j.value
      WHERE e."scannedAt" >= ($1::jsonb -> 0 ->> 1)::timestamp(3) AND e."scannedAt" <= ($1::jsonb -> 0 ->> 2)::timestamp(3)`,
  },
  visits: insertEach(
    "ScanVisitorDay",
    ["dynamicCodeId", "day", "visitorHash"],
    {},
    `ON CONFLICT DO NOTHING RETURNING "dynamicCodeId", "day", "visitorHash"`,
  ),
  scans: SCAN_INSERT,
};
