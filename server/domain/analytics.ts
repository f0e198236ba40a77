// Scan analytics. Every number is read from the daily rollups (ScanDaily), written in the same
// transaction as the scans they count, so the cost of a report depends on the days and the
// distinct values in the range, never on the number of scans. The raw events serve only the
// CSV export of one code's scans. The API and the web analytics page both call these
// functions, so the two can never disagree.
import { z } from "zod";
import { db, dialectSql, readRows, selectRows, type DialectSql } from "../db";
import { notFound } from "../errors";
import { libraryCondition, libraryWhere, type Library } from "./library";
import { keysetPages } from "./paging";
import { resolveRange } from "./dateRange";

const count = z.number().int();
const breakdown = <K extends string>(key: K) => z.array(z.object({ [key]: z.string(), scans: count } as Record<K, z.ZodString> & { scans: typeof count }));

export const codeAnalyticsRecord = z
  .object({
    code: z.string(),
    from: z.string(),
    to: z.string(),
    total_scans: count,
    unique_scans: count,
    daily: z.array(z.object({ date: z.string(), scans: count, unique_scans: count })),
    countries: breakdown("country"),
    devices: breakdown("device"),
    operating_systems: breakdown("os"),
    browsers: breakdown("browser"),
  })
  .meta({ id: "CodeAnalytics" });
export type CodeAnalytics = z.infer<typeof codeAnalyticsRecord>;

export const analyticsSummaryRecord = z
  .object({
    from: z.string(),
    to: z.string(),
    total_scans: count,
    unique_scans: count,
    codes: z.array(z.object({ code: z.string(), name: z.string(), total_scans: count, unique_scans: count })),
  })
  .meta({ id: "AnalyticsSummary" });
export type AnalyticsSummary = z.infer<typeof analyticsSummaryRecord>;

/** A code of the library, deleted or not: scan history stays readable. */
async function codeOf(library: Library, code: string) {
  const row = await db.dynamicCode.findFirst({ where: { code, ...libraryWhere(library) }, select: { id: true, code: true, name: true, deletedAt: true } });
  if (!row) throw notFound("Dynamic QR code not found");
  return row;
}

/** What the analytics page says of a code besides its numbers: its name, and when it was deleted (if it was). */
export async function codeSummaryFor(library: Library, code: string): Promise<{ code: string; name: string; deleted: boolean; deletedAt: Date | null }> {
  const row = await codeOf(library, code);
  return { code, name: row.name, deleted: row.deletedAt !== null, deletedAt: row.deletedAt };
}

const byScans = <T extends { scans: number }>(rows: T[], name: (row: T) => string) => rows.sort((a, b) => b.scans - a.scans || name(a).localeCompare(name(b)));

export async function codeAnalytics(library: Library, code: string, query: { from?: string; to?: string }): Promise<CodeAnalytics> {
  const range = resolveRange(query);
  // One statement: the code (deleted or not) joined to its rollups in the range, summed in the
  // database to one row a day for the totals and one per distinct value for the breakdowns,
  // whatever the number of scans. No row: not a code of this library.
  const owner = libraryCondition(library, "c");
  const rows = await selectRows<{ dimension: string | null; key: string | null; scans: number | string; unique: number | string }>(
    dialectSql(
      () => `SELECT d."dimension", CASE WHEN d."dimension" = 'total' THEN d."day" ELSE d."value" END AS "key",
      SUM(d."scans") AS scans, SUM(d."uniqueScans") AS "unique"
    FROM "DynamicCode" c LEFT JOIN "ScanDaily" d ON d."dynamicCodeId" = c."id" AND d."day" >= ? AND d."day" <= ?
    WHERE c."code" = ? AND ${owner.sql}
    GROUP BY d."dimension", CASE WHEN d."dimension" = 'total' THEN d."day" ELSE d."value" END`,
    ),
    [range.from, range.to, code, owner.id],
  );
  if (rows.length === 0) throw notFound("Dynamic QR code not found");
  const perDay = new Map<string, { scans: number; unique: number }>();
  const sums: Record<string, Map<string, number>> = { country: new Map(), device: new Map(), os: new Map(), browser: new Map() };
  // PostgreSQL sums to bigint (a string from the driver).
  for (const r of rows) {
    if (r.dimension === "total") perDay.set(r.key!, { scans: Number(r.scans), unique: Number(r.unique) });
    else if (r.dimension) sums[r.dimension]?.set(r.key!, Number(r.scans));
  }
  const daily = range.days.map((date) => ({ date, scans: perDay.get(date)?.scans ?? 0, unique_scans: perDay.get(date)?.unique ?? 0 }));
  const list = <K extends string>(dimension: string, key: K) =>
    byScans(
      [...sums[dimension]].map(([value, scans]) => ({ [key]: value, scans }) as Record<K, string> & { scans: number }),
      (r) => r[key],
    );
  return {
    code,
    from: range.from,
    to: range.to,
    total_scans: daily.reduce((n, d) => n + d.scans, 0),
    unique_scans: daily.reduce((n, d) => n + d.unique_scans, 0),
    daily,
    countries: list("country", "country"),
    devices: list("device", "device"),
    operating_systems: list("os", "os"),
    browsers: list("browser", "browser"),
  };
}

/** Every live code the library holds, with its totals in the range, most scanned first. */
export async function analyticsSummary(library: Library, query: { from?: string; to?: string }): Promise<AnalyticsSummary> {
  const range = resolveRange(query);
  // Through the driver: a library may hold 10,000 codes, and Prisma's model objects for each
  // cost more than the query. One statement: each live code of the library joined to its day
  // totals in the range, summed in the database (a code without scans sums to 0).
  const owner = libraryCondition(library, "c");
  const sums = await selectRows<{ code: string; name: string; scans: number | string; unique: number | string }>(
    dialectSql(
      () => `SELECT c."code", c."name", COALESCE(SUM(d."scans"), 0) AS scans, COALESCE(SUM(d."uniqueScans"), 0) AS "unique"
    FROM "DynamicCode" c LEFT JOIN "ScanDaily" d ON d."dynamicCodeId" = c."id" AND d."dimension" = 'total' AND d."day" >= ? AND d."day" <= ?
    WHERE ${owner.sql} AND c."deletedAt" IS NULL
    GROUP BY c."id", c."code", c."name"`,
    ),
    [range.from, range.to, owner.id],
  );
  // PostgreSQL sums to bigint (a string from the driver).
  const rows = sums
    .map((c) => ({ code: c.code, name: c.name, total_scans: Number(c.scans), unique_scans: Number(c.unique) }))
    .sort((a, b) => b.total_scans - a.total_scans || a.code.localeCompare(b.code));
  return {
    from: range.from,
    to: range.to,
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
    const sums = await db.scanDaily.groupBy({ by: ["dynamicCodeId"], where: { dimension: "total", dynamicCodeId: { in: codeIds.slice(i, i + 500) } }, _sum: { scans: true } });
    for (const s of sums) totals.set(s.dynamicCodeId, s._sum.scans ?? 0);
  }
  return totals;
}

/** At most this many destinations are listed (a code has at most 21 URLs, plus older ones). */
const DESTINATIONS_SHOWN = 50;
const DESTINATIONS_SQL = dialectSql(
  () => `SELECT "destinationUrl" AS "destination", COUNT(*) AS "scans" FROM "ScanEvent"
    WHERE "dynamicCodeId" = ? AND "day" >= ? AND "day" <= ? GROUP BY "destinationUrl" ORDER BY COUNT(*) DESC, "destinationUrl" LIMIT ${DESTINATIONS_SHOWN}`,
);

/**
 * Where one code's scans in the range were sent (its targets, its destination, with their UTM
 * tags), most first: the analytics page's "Destinations". Read from the scan events, not the
 * rollups, so its cost grows with the code's scans; the API's report does not include it.
 */
export async function destinationsOf(library: Library, code: string, query: { from?: string; to?: string }): Promise<{ destination: string; scans: number }[]> {
  const range = resolveRange(query);
  const row = await codeOf(library, code);
  const rows = await selectRows<{ destination: string; scans: number | string }>(DESTINATIONS_SQL, [row.id, range.from, range.to]);
  return rows.map((r) => ({ destination: r.destination, scans: Number(r.scans) }));
}

// `destination`: where the short link sent the scan (contract, "Dynamic codes that do more").
export const SCAN_EXPORT_COLUMNS = ["scanned_at", "country", "device", "os", "browser", "unique", "destination"] as const;
const EXPORT_PAGE = 2000;
/**
 * A page of one code's scans after an id, as arrays, `scanned_at` already as the export's
 * text (UTC, whole seconds). The ORDER BY names the index (dynamicCodeId, id) whole, so that
 * PostgreSQL walks it from the cursor on instead of sorting the code's rows for every page.
 */
const EXPORT_SQL: DialectSql = {
  // Stored as ISO text in UTC ("2026-11-22T04:08:39.537+00:00").
  sqlite: `SELECT "id", substr("scannedAt", 1, 19) || 'Z', "country", "device", "os", "browser", "unique", "destinationUrl" FROM "ScanEvent"
    WHERE "dynamicCodeId" = ? AND "day" >= ? AND "day" <= ? AND "id" > ? ORDER BY "dynamicCodeId", "id" LIMIT ?`,
  postgres: `SELECT "id", to_char("scannedAt", 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), "country", "device", "os", "browser", "unique", "destinationUrl" FROM "ScanEvent"
    WHERE "dynamicCodeId" = $1 AND "day" >= $2 AND "day" <= $3 AND "id" > $4 ORDER BY "dynamicCodeId", "id" LIMIT $5`,
};

/** One code's scan events in the range, oldest first, a page at a time (the CSV export). */
export async function scanExportRows(library: Library, code: string, query: { from?: string; to?: string }): Promise<AsyncGenerator<unknown[][]>> {
  // The code and the range are checked here, before the first row, so their errors come first.
  const range = resolveRange(query);
  const row = await codeOf(library, code);
  type ExportRow = [string, string, string, string, string, string, boolean | number, string];
  const pages = keysetPages(
    (after, take) => readRows(EXPORT_SQL, [row.id, range.from, range.to, after ?? "", take]) as Promise<ExportRow[]>,
    EXPORT_PAGE,
    (r) => r[0],
  );
  return (async function* () {
    for await (const rows of pages) yield rows.map(([, scannedAt, country, device, os, browser, unique, destination]) => [scannedAt, country, device, os, browser, unique === true || unique === 1, destination]);
  })();
}
