// Reads of the raw scan events, whose cost grows with a code's scans (the rollups, read by
// analytics.ts, cost what the range's days do): where one code's scans were sent, the CSV export
// of its scans, and its scans of the last hour.
import { dialectSql, readRows, selectRows, storedTime, type DialectSql } from "../platform/db";
import { firstIdAt } from "../platform/ids";
import { sendableUrl } from "../platform/urls";
import { codeOf } from "./analytics";
import { resolveRange, type Range, type RangeQuery } from "./dateRange";
import type { Library } from "../library/library";
import { keysetPages } from "../library/paging";
import { QUARTER_MS, localTimeText, offsetMinutes } from "./timeZones";

/** The raw events' bounds of a range: its UTC days (the index's reach) and its exact instants. */
const rawBounds = (range: Range) => {
  const [start, end] = [range.start * QUARTER_MS, range.end * QUARTER_MS];
  return [
    new Date(start).toISOString().slice(0, 10),
    new Date(end - 1).toISOString().slice(0, 10),
    storedTime(start),
    storedTime(end),
  ];
};

/** At most this many destinations are listed (a code has at most 21 URLs, plus older ones). */
const DESTINATIONS_SHOWN = 50;
const DESTINATIONS_SQL = dialectSql(
  (dialect) => `SELECT "destinationUrl" AS "destination", COUNT(*) AS "scans" FROM "ScanEvent"
    WHERE "dynamicCodeId" = ? AND "day" >= ? AND "day" <= ? AND "scannedAt" >= ${dialect === "sqlite" ? "?" : "CAST(? AS timestamp(3))"} AND "scannedAt" < ${dialect === "sqlite" ? "?" : "CAST(? AS timestamp(3))"}
    GROUP BY "destinationUrl" ORDER BY COUNT(*) DESC, "destinationUrl" LIMIT ${DESTINATIONS_SHOWN}`,
);

/**
 * Where one code's scans in the range were sent (its targets, its destination, with their UTM
 * tags), most first: the analytics page's "Destinations". Read from the scan events, not the
 * rollups, so its cost grows with the code's scans; the API's report does not include it.
 */
export async function destinationsOf(
  library: Library,
  code: string,
  query: RangeQuery,
): Promise<{ destination: string; scans: number }[]> {
  const range = resolveRange(query);
  const row = await codeOf(library, code);
  const rows = await selectRows<{ destination: string; scans: number | string }>(DESTINATIONS_SQL, [
    row.id,
    ...rawBounds(range),
  ]);
  return rows.map((r) => ({ destination: r.destination, scans: Number(r.scans) }));
}

// `destination`: where the short link sent the scan (contract, "Dynamic codes that do more").
export const SCAN_EXPORT_COLUMNS = [
  "scanned_at",
  "country",
  "device",
  "os",
  "browser",
  "unique",
  "destination",
] as const;
/** With `tz`, each scan's time in that zone too, right after the UTC one. */
export const SCAN_EXPORT_COLUMNS_LOCAL = [
  "scanned_at",
  "scanned_at_local",
  "country",
  "device",
  "os",
  "browser",
  "unique",
  "destination",
] as const;
const EXPORT_PAGE = 2000;
/**
 * A page of one code's scans after an id, as arrays, `scanned_at` already as the export's
 * text (UTC, whole seconds), and as epoch milliseconds for the local time. The UTC days bound
 * the rows the index leads to, the instants cut the local days' ends exactly. The ORDER BY
 * names the index (dynamicCodeId, id) whole, so that PostgreSQL walks it from the cursor on
 * instead of sorting the code's rows for every page.
 */
const EXPORT_SQL: DialectSql = {
  // Stored as ISO text in UTC ("2026-11-22T04:08:39.537+00:00"), the same text as the bounds.
  sqlite: `SELECT "id", substr("scannedAt", 1, 19) || 'Z', "country", "device", "os", "browser", "unique", "destinationUrl" FROM "ScanEvent"
    WHERE "dynamicCodeId" = ? AND "day" >= ? AND "day" <= ? AND "scannedAt" >= ? AND "scannedAt" < ? AND "id" > ? ORDER BY "dynamicCodeId", "id" LIMIT ?`,
  postgres: `SELECT "id", to_char("scannedAt", 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), "country", "device", "os", "browser", "unique", "destinationUrl" FROM "ScanEvent"
    WHERE "dynamicCodeId" = $1 AND "day" >= $2 AND "day" <= $3 AND "scannedAt" >= $4::timestamp(3) AND "scannedAt" < $5::timestamp(3) AND "id" > $6
    ORDER BY "dynamicCodeId", "id" LIMIT $7`,
};

/**
 * One code's scan events in the range, oldest first, a page at a time (the CSV export), with
 * its columns and file name: `scanned_at_local` and the zone in the name when `tz` is given.
 */
export async function scanExport(
  library: Library,
  code: string,
  query: RangeQuery,
): Promise<{ stem: string; columns: readonly string[]; pages: AsyncGenerator<unknown[][]> }> {
  // The code and the range are checked here, before the first row, so their errors come first.
  const range = resolveRange(query);
  const row = await codeOf(library, code);
  type ExportRow = [string, string, string, string, string, string, boolean | number, string];
  const bounds = rawBounds(range);
  const pages = keysetPages(
    (after, take) => readRows(EXPORT_SQL, [row.id, ...bounds, after ?? "", take]) as Promise<ExportRow[]>,
    EXPORT_PAGE,
    (r) => r[0],
  );
  const local = query.tz !== undefined;
  // One offset a quarter hour: the zone cannot change it within one.
  const offsets = new Map<number, number>();
  const localTime = (scannedAt: string) => {
    const ms = Date.parse(scannedAt);
    const quarter = Math.floor(ms / QUARTER_MS);
    let offset = offsets.get(quarter);
    if (offset === undefined) offsets.set(quarter, (offset = offsetMinutes(range.tz, ms)));
    return localTimeText(ms, offset);
  };
  return {
    stem: local ? `scans-${code}-${range.tz.replace(/\//g, "_")}` : `scans-${code}`,
    columns: local ? SCAN_EXPORT_COLUMNS_LOCAL : SCAN_EXPORT_COLUMNS,
    pages: (async function* () {
      for await (const rows of pages)
        yield rows.map(([, scannedAt, country, device, os, browser, unique, destination]) =>
          local
            ? [
                scannedAt,
                localTime(scannedAt),
                country,
                device,
                os,
                browser,
                unique === true || unique === 1,
                sendableUrl(destination),
              ]
            : [scannedAt, country, device, os, browser, unique === true || unique === 1, sendableUrl(destination)],
        );
    })(),
  };
}

const LIVE_MINUTES = 60;
/**
 * One code's scans per minute since a time, from the raw events: record ids begin with their
 * time (server/platform/ids.ts), so the index (dynamicCodeId, id) leads straight to the last hour's rows;
 * `scannedAt` keeps out scans written since with an earlier time.
 */
const LIVE_SQL = dialectSql(
  (
    dialect,
  ) => `SELECT ${dialect === "sqlite" ? `substr("scannedAt", 1, 16)` : `to_char("scannedAt", 'YYYY-MM-DD"T"HH24:MI')`} AS "minute", COUNT(*) AS scans
    FROM "ScanEvent" WHERE "dynamicCodeId" = ? AND "id" >= ? AND "scannedAt" >= ${dialect === "sqlite" ? "?" : "CAST(? AS timestamp(3))"} GROUP BY 1`,
);

export type LiveScans = { total_scans: number; minutes: { minute: string; scans: number }[] };

/** The live panel: a code's scans in each of the last 60 minutes (UTC minute starts, oldest first), the current one included. */
export async function liveScans(library: Library, code: string, now = Date.now()): Promise<LiveScans> {
  const { id } = await codeOf(library, code);
  const first = (Math.floor(now / 60_000) - LIVE_MINUTES + 1) * 60_000;
  const rows = await selectRows<{ minute: string; scans: number | string }>(LIVE_SQL, [
    id,
    firstIdAt("scan", first),
    storedTime(first),
  ]);
  const perMinute = new Map(rows.map((r) => [r.minute, Number(r.scans)]));
  const minutes = Array.from({ length: LIVE_MINUTES }, (_, i) => {
    const minute = new Date(first + i * 60_000).toISOString().slice(0, 16);
    return { minute: `${minute}:00Z`, scans: perMinute.get(minute) ?? 0 };
  });
  return { total_scans: minutes.reduce((n, m) => n + m.scans, 0), minutes };
}
