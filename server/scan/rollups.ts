// The rollups that analytics read, per UTC day (ScanDaily) and per UTC quarter hour
// (ScanQuarter): a batch's sums, added to the stored ones in the batch's transaction.
import { insertEach, type RunEach } from "../platform/db";
import { inKeyOrder, type ScanRow } from "./rows";

type Rollup = [
  dynamicCodeId: string,
  bucket: string | number,
  dimension: string,
  value: string,
  scans: number,
  uniqueScans: number,
];

/**
 * The batch's contribution to the rollups that analytics read: per UTC day (ScanDaily) and per
 * UTC quarter hour (ScanQuarter), each total and each value of each dimension. The scans of a
 * batch share few (code, quarter, country, agent) profiles: they are counted per profile first,
 * so each scan costs one lookup instead of ten. Exported for the unit tests of its sums and order.
 */
export function rollupsOf(scans: ScanRow[]): { daily: Rollup[]; quarters: Rollup[] } {
  const profiles = new Map<string, { scan: ScanRow; scans: number; uniqueScans: number }>();
  for (const scan of scans) {
    const key = `${scan.dynamicCodeId}|${scan.quarter}|${scan.country}|${scan.device}|${scan.os}|${scan.browser}`;
    const profile = profiles.get(key);
    if (profile) {
      profile.scans += 1;
      profile.uniqueScans += scan.unique;
    } else profiles.set(key, { scan, scans: 1, uniqueScans: scan.unique });
  }
  const sumsOf = () => new Map<string, Rollup>();
  const [daily, quarters] = [sumsOf(), sumsOf()];
  const add = (
    sums: Map<string, Rollup>,
    code: string,
    bucket: string | number,
    dimension: string,
    value: string,
    scans: number,
    uniqueScans: number,
  ) => {
    const key = `${code}|${bucket}|${dimension}|${value}`;
    const sum = sums.get(key);
    if (sum) {
      sum[4] += scans;
      sum[5] += uniqueScans;
    } else sums.set(key, [code, bucket, dimension, value, scans, uniqueScans]);
  };
  for (const { scan, scans, uniqueScans } of profiles.values()) {
    for (const [sums, bucket] of [
      [daily, scan.day],
      [quarters, scan.quarter],
    ] as const) {
      add(sums, scan.dynamicCodeId, bucket, "total", "", scans, uniqueScans);
      add(sums, scan.dynamicCodeId, bucket, "country", scan.country, scans, uniqueScans);
      add(sums, scan.dynamicCodeId, bucket, "device", scan.device, scans, uniqueScans);
      add(sums, scan.dynamicCodeId, bucket, "os", scan.os, scans, uniqueScans);
      add(sums, scan.dynamicCodeId, bucket, "browser", scan.browser, scans, uniqueScans);
    }
  }
  return { daily: inKeyOrder(daily), quarters: inKeyOrder(quarters) };
}

/** A rollup table's upsert: a batch's sums are added to the stored ones, row by row. */
const rollupUpsert = (table: string, bucket: string, bucketCast: Record<string, string>) =>
  insertEach(
    table,
    ["dynamicCodeId", bucket, "dimension", "value", "scans", "uniqueScans"],
    { ...bucketCast, scans: "integer", uniqueScans: "integer" },
    `ON CONFLICT ("dynamicCodeId", "dimension", "${bucket}", "value")
      DO UPDATE SET "scans" = "${table}"."scans" + excluded."scans", "uniqueScans" = "${table}"."uniqueScans" + excluded."uniqueScans"`,
  );

const SQL = {
  rollups: rollupUpsert("ScanDaily", "day", {}),
  quarterRollups: rollupUpsert("ScanQuarter", "quarter", { quarter: "integer" }),
};

/** Adds the batch's sums to the stored rollups. */
export async function writeRollups(runEach: RunEach, scans: ScanRow[]): Promise<void> {
  const { daily, quarters } = rollupsOf(scans);
  await runEach(SQL.rollups, daily);
  await runEach(SQL.quarterRollups, quarters);
}
