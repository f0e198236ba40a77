// Scan analytics. Every number is read from the rollups, written in the same transaction as the
// scans they count, so the cost of a report depends on the days and the distinct values in the
// range, never on the number of scans: ScanDaily (per UTC day) gives whole UTC days, ScanQuarter
// (per 15-minute UTC bucket) the parts of days where a zone's days begin off UTC midnight, the
// hours of any zone and the partial UTC days at the ends of a range. The raw events serve only
// what must name each scan (scanEvents.ts). The API and the web analytics pages both call these
// functions, so the two can never disagree.
import { db, dialectSql, selectRows } from "../platform/db";
import { invalid, notFound } from "../platform/errors";
import { libraryCondition, libraryWhere, type Library } from "../library/library";
import { resolveRange, type Range, type RangeQuery } from "./dateRange";
import { MAX_HOURLY_DAYS } from "./calendarDays";
import { QUARTER_MS, QUARTERS_A_DAY, dateOfDay, offsetText } from "./timeZones";
import type { AnalyticsSummary, CodeAnalytics } from "./analyticsRecords";

/** A code of the library, deleted or not: scan history stays readable. */
export async function codeOf(library: Library, code: string) {
  const row = await db.dynamicCode.findFirst({
    where: { code, ...libraryWhere(library) },
    select: { id: true, code: true, name: true, deletedAt: true },
  });
  if (!row) throw notFound("Dynamic QR code not found");
  return row;
}

/** What the analytics page says of a code besides its numbers: its name, and when it was deleted (if it was). */
export async function codeSummaryFor(
  library: Library,
  code: string,
): Promise<{ code: string; name: string; deleted: boolean; deletedAt: Date | null }> {
  const row = await codeOf(library, code);
  return { code, name: row.name, deleted: row.deletedAt !== null, deletedAt: row.deletedAt };
}

const byScans = <T extends { scans: number }>(rows: T[], name: (row: T) => string) =>
  rows.sort((a, b) => b.scans - a.scans || name(a).localeCompare(name(b)));

/**
 * A range split where the rollups meet: the whole UTC days inside it (ScanDaily, `firstDay` to
 * `lastDay`, none when `firstDay` > `lastDay`) and the quarters at its two ends (ScanQuarter, [from, to) each).
 */
function splitByUtcDays(range: Range) {
  const firstDay = Math.ceil(range.start / QUARTERS_A_DAY);
  const endDay = Math.floor(range.end / QUARTERS_A_DAY);
  if (firstDay >= endDay)
    return { firstDay: "9999-12-31", lastDay: "0000-01-01", edges: [range.start, range.end, 0, 0] };
  return {
    firstDay: dateOfDay(firstDay),
    lastDay: dateOfDay(endDay - 1),
    edges: [range.start, firstDay * QUARTERS_A_DAY, endDay * QUARTERS_A_DAY, range.end],
  };
}

/** A range holds at most this many spans of one UTC offset (a zone changes its clocks two to four times a year). */
const OFFSET_SLOTS = 8;
const int = "CAST(? AS INTEGER)";
/**
 * A code's total and unique scans per local hour: the quarters of the range, each shifted by
 * its zone offset (the offset of its span: `quarter < end of span → offset`), summed per
 * (offset, shifted quarter / 4). The offset keeps apart the two 01:00 hours of a 25-hour day.
 * At most 7 days: 672 rows.
 */
const ZONED_HOURS = dialectSql(
  () => `SELECT "offset", ("quarter" + "offset") / 4 AS "bucket", SUM("scans") AS scans, SUM("uniqueScans") AS "unique"
    FROM (SELECT q."quarter", q."scans", q."uniqueScans",
        CASE ${Array.from({ length: OFFSET_SLOTS - 1 }, () => `WHEN q."quarter" < ${int} THEN ${int}`).join(" ")} ELSE ${int} END AS "offset"
      FROM "ScanQuarter" q WHERE q."dynamicCodeId" = ? AND q."dimension" = 'total' AND q."quarter" >= ? AND q."quarter" < ?) x
    GROUP BY 1, 2`,
);

/** A code's total and unique scans per UTC day (ScanDaily): a row a day instead of 96. */
const UTC_DAY_TOTALS = dialectSql(
  () => `SELECT "day", "scans", "uniqueScans" AS "unique" FROM "ScanDaily"
    WHERE "dynamicCodeId" = ? AND "dimension" = 'total' AND "day" >= ? AND "day" <= ?`,
);

/**
 * For each boundary (a quarter, given as a JSON array) in the first half of its UTC day, the
 * code's scans of that day before it; in the second half, those from it to the day's end (the
 * day's total minus them is the part before it). Each boundary reads at most 48 quarter rows
 * through the key, where summing every quarter of a year read 35,000 of them. The boundaries
 * come first, each with a range read of the key: SQLite takes that order from CROSS JOIN
 * (without statistics it walked the code's quarters once per boundary), PostgreSQL from
 * LATERAL (for a code of few quarters it planned the same walk: 269 ms).
 */
const DAY_PARTS = dialectSql((dialect) => {
  const boundaries =
    dialect === "sqlite"
      ? `SELECT value AS x FROM json_each(?)`
      : `SELECT CAST(value AS integer) AS x FROM jsonb_array_elements_text(CAST(? AS jsonb))`;
  const firstHalf = `b.x % ${QUARTERS_A_DAY} <= ${QUARTERS_A_DAY / 2}`;
  const dayStart = `b.x - b.x % ${QUARTERS_A_DAY}`;
  const part = `q."dynamicCodeId" = ? AND q."dimension" = 'total'
      AND q."quarter" >= CASE WHEN ${firstHalf} THEN ${dayStart} ELSE b.x END
      AND q."quarter" < CASE WHEN ${firstHalf} THEN b.x ELSE ${dayStart} + ${QUARTERS_A_DAY} END`;
  return dialect === "sqlite"
    ? `SELECT b.x AS "boundary", SUM(q."scans") AS scans, SUM(q."uniqueScans") AS "unique" FROM (${boundaries}) b CROSS JOIN "ScanQuarter" q WHERE ${part} GROUP BY b.x`
    : `SELECT b.x AS "boundary", p.scans, p."unique" FROM (${boundaries}) b
      CROSS JOIN LATERAL (SELECT SUM(q."scans") AS scans, SUM(q."uniqueScans") AS "unique" FROM "ScanQuarter" q WHERE ${part}) p`;
});

type Tally = { scans: number; unique_scans: number };
type Sums = { scans: number | string; unique: number | string };

/**
 * The range's local hours (`size` 4) or days (96) in order, cut where the zone's offset
 * changes: each piece's local bucket number ((quarter + offset) / size), its span's offset, and
 * its quarters [a, b). A day on which the clocks change is two pieces of one bucket; the 01:00
 * hour that comes twice is one bucket number in two spans, told apart by their offsets.
 */
function localBuckets(range: Range, size: number): { bucket: number; offset: number; a: number; b: number }[] {
  const pieces: { bucket: number; offset: number; a: number; b: number }[] = [];
  for (const { from, to, offset } of range.segments)
    for (let bucket = Math.floor((from + offset) / size); bucket * size - offset < to; bucket++)
      pieces.push({
        bucket,
        offset,
        a: Math.max(bucket * size - offset, from),
        b: Math.min((bucket + 1) * size - offset, to),
      });
  return pieces;
}

/**
 * A code's total and unique scans per local day of the range: each day (a piece of it per span
 * of one offset) is the quarters [a, b), summed as the UTC days from a's to b's (ScanDaily) less
 * the part of a's day before a, plus the part of b's day before b (DAY_PARTS). Exact in any
 * zone, days of 23 and 25 hours included, for about a row a day and a boundary.
 */
async function localDayTotals(id: string, range: Range): Promise<Map<string, Tally>> {
  const D = QUARTERS_A_DAY;
  const pieces = localBuckets(range, D);
  const boundaries = [...new Set(pieces.flatMap((p) => [p.a, p.b]))].filter((x) => x % D !== 0);
  const firstDay = Math.floor(range.start / D);
  const lastDay = Math.floor(range.end / D);
  const [days, parts] = await Promise.all([
    selectRows<Sums & { day: string }>(UTC_DAY_TOTALS, [id, dateOfDay(firstDay), dateOfDay(lastDay)]),
    boundaries.length
      ? selectRows<Sums & { boundary: number | string }>(DAY_PARTS, [JSON.stringify(boundaries), id])
      : [],
  ]);
  const dayTotals = new Map(days.map((r) => [r.day, [Number(r.scans), Number(r.unique)]]));
  // before[i]: the sums of the UTC days firstDay … firstDay + i - 1.
  const before = [[0, 0]];
  for (let d = firstDay; d <= lastDay; d++) {
    const [scans, unique] = dayTotals.get(dateOfDay(d)) ?? [0, 0];
    const last = before[before.length - 1];
    before.push([last[0] + scans, last[1] + unique]);
  }
  /** The scans (k = 0) or unique scans (1) of the UTC days from a's to b's, b's excluded. */
  const daysBetween = (a: number, b: number, k: number) =>
    before[Math.floor(b / D) - firstDay][k] - before[Math.floor(a / D) - firstDay][k];
  const partOf = new Map(parts.map((r) => [Number(r.boundary), [Number(r.scans), Number(r.unique)]]));
  /** The scans (k = 0) or unique scans (1) of x's UTC day before x. */
  const beforeInDay = (x: number, k: number) => {
    const inDay = x % D;
    if (inDay === 0) return 0;
    const part = partOf.get(x)?.[k] ?? 0;
    return inDay <= D / 2 ? part : daysBetween(x, x + D, k) - part;
  };
  const tallies = new Map<string, Tally>();
  for (const { bucket, a, b } of pieces) {
    const date = dateOfDay(bucket);
    const sumOf = (k: number) => daysBetween(a, b, k) - beforeInDay(a, k) + beforeInDay(b, k);
    const tally = tallies.get(date) ?? { scans: 0, unique_scans: 0 };
    tally.scans += sumOf(0);
    tally.unique_scans += sumOf(1);
    tallies.set(date, tally);
  }
  return tallies;
}

/** A code's total and unique scans per local hour of the range, keyed `offset|hour` as hoursOf lists them. */
async function localHourTotals(id: string, range: Range): Promise<Map<string, Tally>> {
  const rows = await selectRows<Sums & { offset: number | string; bucket: number | string }>(ZONED_HOURS, [
    ...offsetParams(range),
    id,
    range.start,
    range.end,
  ]);
  // PostgreSQL sums to bigint (a string from the driver).
  return new Map(
    rows.map((r) => [
      `${Number(r.offset)}|${Number(r.bucket)}`,
      { scans: Number(r.scans), unique_scans: Number(r.unique) },
    ]),
  );
}

/** The CASE's parameters for the range's spans: each span's end and offset, the last repeated into the unused slots. */
function offsetParams(range: Range): number[] {
  const spans = range.segments;
  if (spans.length > OFFSET_SLOTS)
    throw new Error(`${range.tz} changes its offset ${spans.length - 1} times in the range`);
  const last = spans[spans.length - 1];
  return [
    ...Array.from({ length: OFFSET_SLOTS - 1 }, (_, i) => spans[i] ?? last).flatMap((s) => [s.to, s.offset]),
    last.offset,
  ];
}

/** The breakdown dimensions: ScanDaily and ScanQuarter rows besides `total`, and where each goes in the answer. */
const BREAKDOWNS = ["country", "device", "os", "browser"] as const;
const inBreakdowns = `"dimension" IN (${BREAKDOWNS.map((d) => `'${d}'`).join(", ")})`;
const BREAKDOWN_SQL = dialectSql(
  () => `SELECT "dimension", "value", SUM("scans") AS scans FROM (
      SELECT "dimension", "value", "scans" FROM "ScanDaily" WHERE "dynamicCodeId" = ? AND ${inBreakdowns} AND "day" >= ? AND "day" <= ?
      UNION ALL SELECT "dimension", "value", "scans" FROM "ScanQuarter" WHERE "dynamicCodeId" = ? AND ${inBreakdowns} AND "quarter" >= ? AND "quarter" < ?
      UNION ALL SELECT "dimension", "value", "scans" FROM "ScanQuarter" WHERE "dynamicCodeId" = ? AND ${inBreakdowns} AND "quarter" >= ? AND "quarter" < ?
    ) x GROUP BY "dimension", "value"`,
);

/** Every hour of the range in its zone, keyed as ZONED_HOURS groups them, labelled with its first instant. */
function hoursOf(range: Range): { key: string; hour: string }[] {
  // An hour cut by a change of clocks of less than an hour (Lord Howe's 30 minutes) starts where its span does.
  return localBuckets(range, 4).map(({ bucket, offset, a }) => ({
    key: `${offset}|${bucket}`,
    hour: `${new Date((a + offset) * QUARTER_MS).toISOString().slice(0, 19)}${offsetText(offset)}`,
  }));
}

export async function codeAnalytics(
  library: Library,
  code: string,
  query: RangeQuery & { granularity?: string },
): Promise<CodeAnalytics> {
  const range = resolveRange(query);
  const granularity = query.granularity ?? "day";
  if (granularity !== "day" && granularity !== "hour") throw invalid("granularity must be day or hour");
  if (granularity === "hour" && range.days.length > MAX_HOURLY_DAYS)
    throw invalid(`granularity=hour takes a range of at most ${MAX_HOURLY_DAYS} days`);
  const { id } = await codeOf(library, code);
  const split = splitByUtcDays(range);
  const [tallies, breakdowns] = await Promise.all([
    granularity === "hour" ? localHourTotals(id, range) : localDayTotals(id, range),
    selectRows<{ dimension: string; value: string; scans: number | string }>(BREAKDOWN_SQL, [
      id,
      split.firstDay,
      split.lastDay,
      id,
      split.edges[0],
      split.edges[1],
      id,
      split.edges[2],
      split.edges[3],
    ]),
  ]);
  // PostgreSQL sums to bigint (a string from the driver).
  const sums: Record<string, Map<string, number>> = Object.fromEntries(BREAKDOWNS.map((d) => [d, new Map()]));
  for (const r of breakdowns) sums[r.dimension]?.set(r.value, Number(r.scans));
  const list = <K extends string>(dimension: string, key: K) =>
    byScans(
      [...sums[dimension]].map(([value, scans]) => ({ [key]: value, scans }) as Record<K, string> & { scans: number }),
      (r) => r[key],
    );
  const tallyOf = (key: string) => ({
    scans: tallies.get(key)?.scans ?? 0,
    unique_scans: tallies.get(key)?.unique_scans ?? 0,
  });
  const hourly =
    granularity === "hour" ? hoursOf(range).map(({ key, hour }) => ({ hour, ...tallyOf(key) })) : undefined;
  const daily = hourly ? undefined : range.days.map((date) => ({ date, ...tallyOf(date) }));
  const counted: Tally[] = hourly ?? daily!;
  return {
    code,
    from: range.from,
    to: range.to,
    tz: range.tz,
    total_scans: counted.reduce((n, d) => n + d.scans, 0),
    unique_scans: counted.reduce((n, d) => n + d.unique_scans, 0),
    ...(hourly ? { hourly } : { daily }),
    countries: list("country", "country"),
    devices: list("device", "device"),
    operating_systems: list("os", "os"),
    browsers: list("browser", "browser"),
  };
}

/** Each code's whole UTC days in the range (ScanDaily): every live code of the library, 0 when it has none. */
const SUMMARY_DAYS_SQL = (owner: string) =>
  dialectSql(
    () => `SELECT c."code", c."name", COALESCE(SUM(d."scans"), 0) AS scans, COALESCE(SUM(d."uniqueScans"), 0) AS "unique"
    FROM "DynamicCode" c LEFT JOIN "ScanDaily" d ON d."dynamicCodeId" = c."id" AND d."dimension" = 'total' AND d."day" >= ? AND d."day" <= ?
    WHERE ${owner} AND c."deletedAt" IS NULL
    GROUP BY c."id", c."code", c."name"`,
  );
/** Each code's quarters at the two ends of the range (ScanQuarter), for the codes that have any. */
const SUMMARY_EDGES_SQL = (owner: string) =>
  dialectSql(() => {
    const edge = `SELECT c."code", q."scans", q."uniqueScans" FROM "DynamicCode" c
        JOIN "ScanQuarter" q ON q."dynamicCodeId" = c."id" AND q."dimension" = 'total' AND q."quarter" >= ? AND q."quarter" < ?
        WHERE ${owner} AND c."deletedAt" IS NULL`;
    return `SELECT "code", SUM("scans") AS scans, SUM("uniqueScans") AS "unique" FROM (${edge} UNION ALL ${edge}) x GROUP BY "code"`;
  });

/** Every live code the library holds, with its totals in the range, most scanned first. */
export async function analyticsSummary(library: Library, query: RangeQuery): Promise<AnalyticsSummary> {
  const range = resolveRange(query);
  // Through the driver: a library may hold 10,000 codes, and Prisma's model objects for each
  // cost more than the query. Two statements, summed in the database: the whole UTC days of the
  // range for each code, and the quarters at its ends (none for UTC).
  const owner = libraryCondition(library, "c");
  const split = splitByUtcDays(range);
  type Sum = { code: string; scans: number | string; unique: number | string };
  const [days, edges] = await Promise.all([
    selectRows<Sum & { name: string }>(SUMMARY_DAYS_SQL(owner.sql), [split.firstDay, split.lastDay, owner.id]),
    selectRows<Sum>(SUMMARY_EDGES_SQL(owner.sql), [
      split.edges[0],
      split.edges[1],
      owner.id,
      split.edges[2],
      split.edges[3],
      owner.id,
    ]),
  ]);
  const atEdges = new Map(edges.map((e) => [e.code, e]));
  // PostgreSQL sums to bigint (a string from the driver).
  const rows = days
    .map((c) => ({
      code: c.code,
      name: c.name,
      total_scans: Number(c.scans) + Number(atEdges.get(c.code)?.scans ?? 0),
      unique_scans: Number(c.unique) + Number(atEdges.get(c.code)?.unique ?? 0),
    }))
    .sort((a, b) => b.total_scans - a.total_scans || a.code.localeCompare(b.code));
  return {
    from: range.from,
    to: range.to,
    tz: range.tz,
    total_scans: rows.reduce((n, r) => n + r.total_scans, 0),
    unique_scans: rows.reduce((n, r) => n + r.unique_scans, 0),
    codes: rows,
  };
}

/** All-time scans per code (the dynamic export's `total_scans`), from the rollups. */
export async function totalScansOf(codeIds: string[]): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  // In slices that stay under every database's limit on bound parameters.
  for (let i = 0; i < codeIds.length; i += 500) {
    const sums = await db.scanDaily.groupBy({
      by: ["dynamicCodeId"],
      where: { dimension: "total", dynamicCodeId: { in: codeIds.slice(i, i + 500) } },
      _sum: { scans: true },
    });
    for (const s of sums) totals.set(s.dynamicCodeId, s._sum.scans ?? 0);
  }
  return totals;
}
