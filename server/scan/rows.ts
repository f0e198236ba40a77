// A scan as the redirect hands it over, and as it is stored: what the recorder buffers, the
// spool keeps and the writer turns into rows; and the one order every writer takes rows in.
import { storedTime } from "../platform/db";
import { timeOrderedId } from "../platform/ids";
import { QUARTER_MS } from "../analytics/timeZones";
import { countryOf } from "./country";
import { describeAgent, visitorHash } from "./visitor";

/** What the redirect knows of a scan; the rest is derived when the batch is written. */
export type ScanInput = {
  dynamicCodeId: string;
  /** Epoch milliseconds (a number: Next wraps the Date constructor, which costs each redirect). */
  scannedAt: number;
  destinationUrl: string;
  userAgent: string;
  /** The client address: used for the visitor hash and the country, never stored. */
  address: string;
  /** The value of the trusted country header, if any. */
  countryHeader: string | null;
};
export type BufferedScan = ScanInput & {
  id: string;
  /** On the last scan of a spool write: the spool position after it. */
  spooled?: number;
  /**
   * Made by this process and never in a write that failed: it cannot be stored yet, so its
   * batch skips the check for stored ids. A replayed scan, or one whose write failed (perhaps
   * after its commit), is checked.
   */
  fresh?: boolean;
};

// Each field named (a spread cost each redirect 2 µs, and made the batch slower to send to the thread).
export const newScan = (scan: ScanInput): BufferedScan => ({
  id: timeOrderedId("scan"),
  dynamicCodeId: scan.dynamicCodeId,
  scannedAt: scan.scannedAt,
  destinationUrl: scan.destinationUrl,
  userAgent: scan.userAgent,
  address: scan.address,
  countryHeader: scan.countryHeader,
  fresh: true,
});

/** A scan as stored, plus which visitor of the day it is. */
export type ScanRow = {
  id: string;
  dynamicCodeId: string;
  scannedAt: string;
  day: string;
  /** The UTC quarter hour (ScanQuarter's bucket). */
  quarter: number;
  country: string;
  device: string;
  os: string;
  browser: string;
  visitorHash: string;
  /** 1 for the first scan of this visitor for this code on this UTC day, else 0. */
  unique: number;
  destinationUrl: string;
  visitor: string;
};

/** The columns of a stored scan, in the order its rows are bound. */
export const SCAN_COLUMNS = [
  "id",
  "dynamicCodeId",
  "scannedAt",
  "day",
  "country",
  "device",
  "os",
  "browser",
  "visitorHash",
  "unique",
  "destinationUrl",
] as const satisfies readonly (keyof ScanRow)[];

export const visitorOfDay = (dynamicCodeId: string, day: string, hash: string) => `${dynamicCodeId}|${day}|${hash}`;

/** The stored row: parsing and hashing happen here, off the redirect's critical path. */
export function toRow(scan: BufferedScan): ScanRow {
  const scannedAt = storedTime(scan.scannedAt);
  const day = scannedAt.slice(0, 10);
  const agent = describeAgent(scan.userAgent);
  const hash = visitorHash(scan.address, scan.userAgent);
  return {
    id: scan.id,
    dynamicCodeId: scan.dynamicCodeId,
    scannedAt,
    day,
    quarter: Math.floor(scan.scannedAt / QUARTER_MS),
    country: countryOf(scan.countryHeader, scan.address),
    device: agent.device,
    os: agent.os,
    browser: agent.browser,
    visitorHash: hash,
    unique: 0,
    destinationUrl: scan.destinationUrl,
    visitor: visitorOfDay(scan.dynamicCodeId, day, hash),
  };
}

/**
 * A map's values in the order of their keys (code units): every statement that may wait for
 * another writer's row (a visitor mark, a rollup) takes its rows in this one order, the same in
 * every process, so that two writers over the same codes wait for each other, never each for
 * the other (a deadlock, which cost PostgreSQL its deadlock_timeout and a batch written again).
 */
export function inKeyOrder<T>(rows: Map<string, T>): T[] {
  return [...rows.keys()].sort().map((key) => rows.get(key)!);
}
