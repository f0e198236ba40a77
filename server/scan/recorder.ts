// Scan recording off the redirect's critical path: a scan is appended to an in-memory buffer
// before its redirect is answered, and the buffer is written in batches (every 200 ms or 500
// scans) in one transaction each, by the writer thread in the production server
// (writer-thread.ts). A failed write keeps the batch for the next try. On SIGTERM or SIGINT
// the buffer is drained before the process exits (server/http-server.ts).
// A hard crash (kill -9, power loss) loses what is still in the buffer: at most 200 ms of scans.
import { createHmac } from "node:crypto";
import { isbot } from "isbot";
import UAParser from "ua-parser-js";
import { dialect, writeTransaction, type DialectSql } from "../db";
import { logError } from "../log";
import { secret } from "../secrets";
import { timeOrderedId } from "../ids";
import { countryOf } from "./country";

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
export type BufferedScan = ScanInput & { id: string };

const FLUSH_INTERVAL_MS = 200;
const FLUSH_SIZE = 500;
/** After a failed write, wait this long before the next try (the database may be down). */
const RETRY_MS = 1000;

type Buffer_ = { scans: BufferedScan[]; timer: NodeJS.Timeout | null; writing: Promise<void> | null };
const globalBuffer = globalThis as unknown as { qrScanBuffer?: Buffer_ };
const buffer: Buffer_ = (globalBuffer.qrScanBuffer ??= { scans: [], timer: null, writing: null });

const DESKTOP_OS = /^(Windows|Mac OS|Linux|Ubuntu|Debian|Fedora|Chromium OS|Chrome OS)/;

type Agent = { device: string; os: string; browser: string };
const AGENT_CACHE_SIZE = 5_000;
// Parsing costs about 20 µs and the bot check 2 µs; most scans come from a few thousand
// distinct agents, so both are remembered (oldest forgotten first), and so are the visitor
// hashes of the last few thousand visitors.
const agents = new Map<string, Agent>();
const bots = new Map<string, boolean>();

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= AGENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

/** Device class, OS and browser names from a user agent. */
export function describeAgent(userAgent: string): Agent {
  const cached = agents.get(userAgent);
  if (cached) return cached;
  const ua = new UAParser(userAgent).getResult();
  const type = ua.device.type;
  const os = ua.os.name ?? "Unknown";
  const device = type === "mobile" || type === "tablet" ? type : type ? "other" : DESKTOP_OS.test(os) ? "desktop" : "other";
  return remember(agents, userAgent, { device, os, browser: ua.browser.name ?? "Unknown" });
}

/** Bots and link-preview agents are redirected but not counted; so is an empty agent. */
export const isBotAgent = (userAgent: string): boolean => bots.get(userAgent) ?? remember(bots, userAgent, userAgent === "" || isbot(userAgent));

const visitors = new Map<string, string>();

/** Keyed hash of client address and user agent: the raw address is never stored (nor kept here
 * beyond the last few thousand visitors, whose repeated scans skip the HMAC). */
export function visitorHash(address: string, userAgent: string): string {
  const visitor = `${address}\n${userAgent}`;
  return visitors.get(visitor) ?? remember(visitors, visitor, createHmac("sha256", secret("VISITOR_HASH_SECRET")).update(visitor).digest("hex").slice(0, 32));
}

export function bufferScan(scan: ScanInput): void {
  buffer.scans.push(newScan(scan));
  scheduleFlush();
}

export const newScan = (scan: ScanInput): BufferedScan => ({ ...scan, id: timeOrderedId("scan") });

/** A full batch is written now; anything less within FLUSH_INTERVAL_MS. */
function scheduleFlush(): void {
  if (buffer.scans.length >= FLUSH_SIZE) void flushScans();
  else if (buffer.scans.length > 0) buffer.timer ??= setTimeout(() => void flushScans(), FLUSH_INTERVAL_MS);
}

const visitorDayKey = (s: { dynamicCodeId: string; day: string; visitorHash: string }) => `${s.dynamicCodeId}|${s.day}|${s.visitorHash}`;

/** The stored row: parsing and hashing happen here, off the redirect's critical path. */
function toRow({ id, dynamicCodeId, scannedAt: at, destinationUrl, userAgent, address, countryHeader }: BufferedScan) {
  const scannedAt = new Date(at);
  return {
    id,
    dynamicCodeId,
    scannedAt,
    destinationUrl,
    day: scannedAt.toISOString().slice(0, 10),
    country: countryOf(countryHeader, address),
    ...describeAgent(userAgent),
    visitorHash: visitorHash(address, userAgent),
  };
}

/** Writes one batch in one transaction; exported for tests of the uniqueness rule. */
export async function writeScans(batch: BufferedScan[]): Promise<void> {
  const scans = batch.map(toRow);
  const visits = [...new Map(scans.map((s) => [visitorDayKey(s), s])).values()];
  const timestamp = TIMESTAMP_TEXT[dialect];
  await writeTransaction(async (run) => {
    // The primary key decides which visitors are new for the day: the rows it lets in are
    // returned, and the first scan of each such visitor in the batch is the unique one.
    const fresh = (await run(SQL.visits, [JSON.stringify(visits.map((v) => ({ c: v.dynamicCodeId, d: v.day, h: v.visitorHash })))])) as {
      dynamicCodeId: string;
      day: string;
      visitorHash: string;
    }[];
    const firsts = new Set(fresh.map(visitorDayKey));
    const rows = scans.map((scan) => ({ ...scan, scannedAt: timestamp(scan.scannedAt), unique: firsts.delete(visitorDayKey(scan)) }));
    await run(SQL.scans, [JSON.stringify(rows)]);
    await run(SQL.rollups, [JSON.stringify(rollupsOf(rows))]);
  });
}

/** The batch's contribution to the daily rollups that analytics read. */
function rollupsOf(rows: { dynamicCodeId: string; day: string; country: string; device: string; os: string; browser: string; unique: boolean }[]) {
  const sums = new Map<string, { c: string; d: string; m: string; v: string; s: number; u: number }>();
  for (const row of rows) {
    for (const [m, v] of [["total", ""], ["country", row.country], ["device", row.device], ["os", row.os], ["browser", row.browser]]) {
      const key = `${row.dynamicCodeId}|${row.day}|${m}|${v}`;
      const sum = sums.get(key) ?? { c: row.dynamicCodeId, d: row.day, m, v, s: 0, u: 0 };
      sum.s += 1;
      if (row.unique) sum.u += 1;
      sums.set(key, sum);
    }
  }
  return [...sums.values()];
}

// Each batch travels as one JSON parameter that the database unpacks: binding 11 parameters
// per row costs the event loop far more (createMany: 100 ms for 500 rows on SQLite; a
// multi-row VALUES: 6 to 9 ms; one JSON parameter: see docs/BENCHMARKS.md).
const SCAN_COLUMNS = ["id", "dynamicCodeId", "scannedAt", "day", "country", "device", "os", "browser", "visitorHash", "unique", "destinationUrl"];
const quoted = SCAN_COLUMNS.map((c) => `"${c}"`).join(", ");
const SQL: Record<"visits" | "scans" | "rollups", DialectSql> = {
  visits: {
    // SQLite needs the WHERE on an INSERT … SELECT with an upsert clause (parsing ambiguity).
    sqlite: `INSERT INTO "ScanVisitorDay" ("dynamicCodeId", "day", "visitorHash")
      SELECT value ->> 'c', value ->> 'd', value ->> 'h' FROM json_each(?) WHERE true
      ON CONFLICT DO NOTHING RETURNING "dynamicCodeId", "day", "visitorHash"`,
    postgres: `INSERT INTO "ScanVisitorDay" ("dynamicCodeId", "day", "visitorHash")
      SELECT c, d, h FROM json_to_recordset($1::json) AS x(c text, d text, h text)
      ON CONFLICT DO NOTHING RETURNING "dynamicCodeId", "day", "visitorHash"`,
  },
  scans: {
    sqlite: `INSERT INTO "ScanEvent" (${quoted}) SELECT ${SCAN_COLUMNS.map((c) => `value ->> '${c}'`).join(", ")} FROM json_each(?)`,
    postgres: `INSERT INTO "ScanEvent" (${quoted}) SELECT ${quoted} FROM json_to_recordset($1::json) AS x(
      "id" text, "dynamicCodeId" text, "scannedAt" timestamp(3), "day" text, "country" text, "device" text,
      "os" text, "browser" text, "visitorHash" text, "unique" boolean, "destinationUrl" text)`,
  },
  rollups: {
    sqlite: `INSERT INTO "ScanDaily" ("dynamicCodeId", "day", "dimension", "value", "scans", "uniqueScans")
      SELECT value ->> 'c', value ->> 'd', value ->> 'm', value ->> 'v', value ->> 's', value ->> 'u' FROM json_each(?) WHERE true
      ON CONFLICT ("dynamicCodeId", "dimension", "day", "value")
      DO UPDATE SET "scans" = "ScanDaily"."scans" + excluded."scans", "uniqueScans" = "ScanDaily"."uniqueScans" + excluded."uniqueScans"`,
    postgres: `INSERT INTO "ScanDaily" ("dynamicCodeId", "day", "dimension", "value", "scans", "uniqueScans")
      SELECT c, d, m, v, s, u FROM json_to_recordset($1::json) AS x(c text, d text, m text, v text, s integer, u integer)
      ON CONFLICT ("dynamicCodeId", "dimension", "day", "value")
      DO UPDATE SET "scans" = "ScanDaily"."scans" + excluded."scans", "uniqueScans" = "ScanDaily"."uniqueScans" + excluded."uniqueScans"`,
  },
};
const TIMESTAMP_TEXT = {
  // The text form the Prisma SQLite adapter writes, so that it reads it back.
  sqlite: (date: Date) => date.toISOString().replace("Z", "+00:00"),
  postgres: (date: Date) => date.toISOString(),
};

let write: (batch: BufferedScan[]) => Promise<void> = writeScans;

/** Where batches are written: in process by default, or by the writer thread (writer-thread.ts). */
export function setScanWriter(writer: (batch: BufferedScan[]) => Promise<void>): void {
  write = writer;
}

/** Writes up to one batch of what the buffer holds; one writer at a time. */
export async function flushScans(): Promise<void> {
  if (buffer.timer) {
    clearTimeout(buffer.timer);
    buffer.timer = null;
  }
  while (buffer.writing) await buffer.writing;
  if (buffer.scans.length === 0) return;
  const batch = buffer.scans.splice(0, FLUSH_SIZE);
  let failed = false;
  buffer.writing = write(batch).catch((error) => {
    logError("scans.write_failed", { count: batch.length }, error);
    buffer.scans.unshift(...batch); // kept for the next try: nothing accepted is lost
    failed = true;
  });
  try {
    await buffer.writing;
  } finally {
    buffer.writing = null;
  }
  if (failed) buffer.timer ??= setTimeout(() => void flushScans(), RETRY_MS);
  else scheduleFlush();
}

/** Before exit: write until nothing is left (scans answered meanwhile are included). */
export async function drainScans(deadlineMs = 10_000): Promise<number> {
  const end = Date.now() + deadlineMs;
  while ((buffer.scans.length > 0 || buffer.writing) && Date.now() < end) await flushScans();
  return buffer.scans.length;
}
