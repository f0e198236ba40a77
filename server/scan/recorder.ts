// Scan recording off the redirect's critical path. With the spool (server/scan/spool, started
// by the production server), the scans of one event-loop turn are appended to it in one write
// before their redirects are answered; then they join an in-memory buffer that is written in
// batches (every 200 ms or 500 scans) in one transaction each, by the background thread
// (server/background-thread.ts), and each written batch moves the spool's checkpoint. A failed
// write keeps the batch for the next try. On SIGTERM or SIGINT the buffer is drained before the
// process exits (server/http-server.ts). A crash loses nothing the spool holds: the next
// start writes it, and a scan's id makes that exactly once (writeScans skips stored ids).
// Without a spool (`next dev`, serverless, or a spool that cannot be written) a hard crash
// loses what is still in the buffer: normally the last 200 ms of scans.
// Memory is bounded whatever the database does: beyond SCAN_MEMORY_SCANS unwritten scans, each
// turn's scans are only appended to the spool, and the writer reads them back from it, in
// order, as the buffer empties (a backlog of minutes costs disk, not memory).
import { createHmac } from "node:crypto";
import { isbot } from "isbot";
import UAParser from "ua-parser-js";
import { dialectSql, insertEach, storedTime, writeTransaction, type RunEach } from "../db";
import { env } from "../env";
import { logError } from "../log";
import { countScansWritten, watchScanBuffer } from "../metrics";
import { secret } from "../secrets";
import { timeOrderedId } from "../ids";
import { memoize } from "../memoize";
import { processSingleton } from "../process-singleton";
import { countryOf } from "./country";
import { QUARTER_MS } from "../domain/timeZones";
import { outboxEvent } from "../webhooks/payload";

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

/** Where the scans of a turn are appended before their redirects are answered (server/scan/spool). */
export type ScanSpool = {
  /** The position after the scans, or null when they could not be appended (they stay in memory only). */
  append(scans: BufferedScan[]): number | null;
  /** With SCAN_SPOOL_FSYNC_MS=0: resolves once the appended scans are on the disk. */
  sync: (() => Promise<void>) | null;
  /** Every spooled scan up to `position` is in the database. */
  written(position: number): void;
  /** Where the next append goes. */
  end(): number;
  /** This process's spooled scans from `from` on, in order, about `most` of them (whole turns, each turn's last marked `spooled`), and where to read on. */
  read(from: number, most: number): Promise<{ scans: BufferedScan[]; next: number }>;
};

const FLUSH_INTERVAL_MS = 200;
const FLUSH_SIZE = 500;
/** After a failed write, wait this long before the next try (the database may be down). */
const RETRY_MS = 1000;

type ScanBuffer = {
  scans: BufferedScan[];
  timer: NodeJS.Timeout | null;
  writing: Promise<void> | null;
  /** Where batches are written: in process by default, or by the background thread (server/background-thread.ts). Resolves to the number newly stored. */
  write: (batch: BufferedScan[]) => Promise<number>;
  spool: ScanSpool | null;
  /** This turn's scans, appended to the spool together when the turn ends. */
  turn: BufferedScan[];
  turnSpooled: Promise<void> | null;
  /** After a failed write, no other is tried before this time (a full buffer would try at every scan). */
  retryAt: number;
  /** Beyond the memory bound: the scans that wait in the spool only, from `cursor` on. */
  overflow: { cursor: number; scans: number; loading: Promise<void> | null } | null;
  /** Scans written per second of writing (a moving average of the batches), and whether the last write failed. */
  rate: number;
  failing: boolean;
  /** The scans of the batch being written, and since when (performance.now()). */
  inFlight: number;
  writeStarted: number;
};
// One per process (Next's copy of this module and the Node server's share it).
const buffer: ScanBuffer = processSingleton("scans.buffer", () => ({ scans: [], timer: null, writing: null, write: writeScans, spool: null, turn: [], turnSpooled: null, retryAt: 0, overflow: null, rate: 0, failing: false, inFlight: 0, writeStarted: 0 }));
watchScanBuffer(() => ({ memory: inMemory(), spool: buffer.overflow?.scans ?? 0 }), () => secondsBehind());

const DESKTOP_OS = /^(Windows|Mac OS|Linux|Ubuntu|Debian|Fedora|Chromium OS|Chrome OS)/;

type Agent = { device: string; os: string; browser: string };
// Parsing costs about 20 µs and the bot check 2 µs; both, the visitor hashes and the countries
// (server/scan/country.ts) are remembered for the last few thousand agents and visitors.

/** Device class, OS and browser names from a user agent. */
export const describeAgent = memoize("agent", (userAgent): Agent => {
  const ua = new UAParser(userAgent).getResult();
  const type = ua.device.type;
  const os = ua.os.name ?? "Unknown";
  const device = type === "mobile" || type === "tablet" ? type : type ? "other" : DESKTOP_OS.test(os) ? "desktop" : "other";
  return { device, os, browser: ua.browser.name ?? "Unknown" };
});

/** Bots and link-preview agents are redirected but not counted; so is an empty agent. */
export const isBotAgent = memoize("isBot", (userAgent) => userAgent === "" || isbot(userAgent));

const hashOfVisitor = memoize("visitorHash", (visitor) => createHmac("sha256", secret("VISITOR_HASH_SECRET")).update(visitor).digest("hex").slice(0, 32));

/** Keyed hash of client address and user agent: the raw address is never stored (nor kept here
 * beyond the last few thousand visitors, whose repeated scans skip the HMAC). */
export const visitorHash = (address: string, userAgent: string): string => hashOfVisitor(`${address}\n${userAgent}`);

/** Takes a scan; with a spool, the promise resolves once it is in the spool (answer after it). */
export function bufferScan(scan: ScanInput): Promise<void> | undefined {
  if (!buffer.spool) {
    buffer.scans.push(newScan(scan));
    scheduleFlush();
    return undefined;
  }
  buffer.turn.push(newScan(scan));
  // One write for every scan of this turn: setImmediate runs once the turn's I/O is handled.
  return (buffer.turnSpooled ??= new Promise<void>((resolve) => setImmediate(spoolTurn, resolve)));
}

function spoolTurn(resolve: () => void): void {
  const scans = buffer.turn;
  const spool = buffer.spool!;
  buffer.turn = [];
  buffer.turnSpooled = null;
  const before = spool.end();
  const position = spool.append(scans);
  if (position !== null) scans[scans.length - 1].spooled = position;
  // Spooled beyond the bound: read back later, after every scan before it (which memory holds).
  if (position !== null && (buffer.overflow || inMemory() + scans.length > env.scanMemoryScans)) {
    (buffer.overflow ??= { cursor: before, scans: 0, loading: null }).scans += scans.length;
  } else for (const scan of scans) buffer.scans.push(scan);
  scheduleFlush();
  if (position !== null && spool.sync) spool.sync().then(resolve, resolve);
  else resolve();
}

/** From now on each scan is appended to `spool` before its redirect is answered. */
export function setScanSpool(spool: ScanSpool): void {
  buffer.spool = spool;
}

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

/** A full batch is written now; anything less within FLUSH_INTERVAL_MS. */
function scheduleFlush(): void {
  if (buffer.overflow && !buffer.failing && env.scanMemoryScans - inMemory() >= Math.min(FLUSH_SIZE, env.scanMemoryScans / 2)) void loadOverflow();
  const wait = buffer.retryAt - Date.now();
  if (buffer.scans.length >= FLUSH_SIZE && wait <= 0) void flushScans();
  else if (buffer.scans.length > 0) buffer.timer ??= setTimeout(() => void flushScans(), Math.max(FLUSH_INTERVAL_MS, wait));
}

/** A scan as stored, plus which visitor of the day it is. */
type ScanRow = {
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
const SCAN_COLUMNS = ["id", "dynamicCodeId", "scannedAt", "day", "country", "device", "os", "browser", "visitorHash", "unique", "destinationUrl"] as const satisfies readonly (keyof ScanRow)[];

const visitorOfDay = (dynamicCodeId: string, day: string, hash: string) => `${dynamicCodeId}|${day}|${hash}`;

/** The stored row: parsing and hashing happen here, off the redirect's critical path. */
function toRow(scan: BufferedScan): ScanRow {
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
 * Writes one batch in one transaction; the number of scans newly stored. A scan whose id is
 * already stored (a spool replayed after a crash that came between a batch's commit and its
 * checkpoint, or a batch tried again after a failure that came after its commit) is skipped
 * whole: its visitor mark, rollups and event were written with it.
 * Exported for tests of the uniqueness rule.
 */
export async function writeScans(batch: BufferedScan[]): Promise<number> {
  if (batch.length === 0) return 0;
  const rows = batch.map(toRow);
  return writeTransaction(async (runEach) => {
    const stored = batch.every((scan) => scan.fresh) ? [] : ((await runEach(SQL.stored, [storedCheck(rows)])) as { id: string }[]);
    const known = new Set(stored.map((s) => s.id));
    const scans = known.size === 0 ? rows : rows.filter((s) => !known.has(s.id));
    const firstOfVisitor = new Map<string, ScanRow>();
    for (const scan of scans) if (!firstOfVisitor.has(scan.visitor)) firstOfVisitor.set(scan.visitor, scan);
    // The primary key decides which visitors are new for the day: the rows it lets in are
    // returned, and the first scan of each such visitor in the batch is the unique one.
    // Every statement that may wait for another writer's row (a visitor mark, a rollup) takes
    // its rows in one global order, the same in every process: two writers over the same codes
    // then wait for each other, never each for the other (a deadlock, which cost PostgreSQL its
    // deadlock_timeout and a batch written again, each time).
    const visits = inKeyOrder(firstOfVisitor).map((s) => [s.dynamicCodeId, s.day, s.visitorHash]);
    const fresh = (await runEach(SQL.visits, visits)) as { dynamicCodeId: string; day: string; visitorHash: string }[];
    for (const v of fresh) firstOfVisitor.get(visitorOfDay(v.dynamicCodeId, v.day, v.visitorHash))!.unique = 1;
    await runEach(SQL.scans, scans.map((s) => SCAN_COLUMNS.map((column) => s[column])));
    const { daily, quarters } = rollupsOf(scans);
    await runEach(SQL.rollups, daily);
    await runEach(SQL.quarterRollups, quarters);
    await writeScanEvents(runEach, scans);
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

type Subscriber = { dynamicCodeId: string; code: string; endpointId: string; library: string };

/**
 * The batch's `scan.created` events (contract: "Webhooks"), in its transaction: one event per
 * scan of a code whose library has an enabled endpoint subscribed to them, and one delivery per
 * such endpoint. One statement finds them for the whole batch; a batch of codes nobody
 * subscribed to stores nothing more. The dispatcher (server/webhooks) finds the deliveries
 * within a second: nothing here waits for it, so a redirect never does.
 */
async function writeScanEvents(runEach: RunEach, scans: ScanRow[]): Promise<void> {
  const codeIds = [...new Set(scans.map((s) => s.dynamicCodeId))];
  const subscribers = (await runEach(SQL.subscribers, [[JSON.stringify(codeIds)]])) as Subscriber[];
  if (subscribers.length === 0) return;
  const byCode = new Map<string, Subscriber[]>();
  for (const s of subscribers) byCode.set(s.dynamicCodeId, [...(byCode.get(s.dynamicCodeId) ?? []), s]);
  const at = Date.now();
  const now = storedTime(at);
  const events: unknown[][] = [];
  const deliveries: unknown[][] = [];
  for (const scan of scans) {
    const targets = byCode.get(scan.dynamicCodeId);
    if (!targets) continue;
    // Epoch seconds, as every time in JSON (README, "Timestamps").
    const scannedAt = Math.floor(Date.parse(scan.scannedAt) / 1000);
    const data = { code: targets[0].code, scanned_at: scannedAt, country: scan.country, device: scan.device, os: scan.os, browser: scan.browser, unique: scan.unique === 1 };
    const { id, payload } = outboxEvent({ type: "scan.created", data }, at);
    events.push([id, targets[0].library, "scan.created", payload, now]);
    for (const t of targets) deliveries.push([timeOrderedId("dlv"), t.endpointId, id, "pending", 0, now]);
  }
  await runEach(SQL.events, events);
  await runEach(SQL.deliveries, deliveries);
}

type Rollup = [dynamicCodeId: string, bucket: string | number, dimension: string, value: string, scans: number, uniqueScans: number];

/**
 * The batch's contribution to the rollups that analytics read: per UTC day (ScanDaily) and per
 * UTC quarter hour (ScanQuarter), each total and each value of each dimension. The scans of a
 * batch share few (code, quarter, country, agent) profiles: they are counted per profile first,
 * so each scan costs one lookup instead of ten.
 */
function rollupsOf(scans: ScanRow[]): { daily: Rollup[]; quarters: Rollup[] } {
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
  const add = (sums: Map<string, Rollup>, code: string, bucket: string | number, dimension: string, value: string, scans: number, uniqueScans: number) => {
    const key = `${code}|${bucket}|${dimension}|${value}`;
    const sum = sums.get(key);
    if (sum) {
      sum[4] += scans;
      sum[5] += uniqueScans;
    } else sums.set(key, [code, bucket, dimension, value, scans, uniqueScans]);
  };
  for (const { scan, scans, uniqueScans } of profiles.values()) {
    for (const [sums, bucket] of [[daily, scan.day], [quarters, scan.quarter]] as const) {
      add(sums, scan.dynamicCodeId, bucket, "total", "", scans, uniqueScans);
      add(sums, scan.dynamicCodeId, bucket, "country", scan.country, scans, uniqueScans);
      add(sums, scan.dynamicCodeId, bucket, "device", scan.device, scans, uniqueScans);
      add(sums, scan.dynamicCodeId, bucket, "os", scan.os, scans, uniqueScans);
      add(sums, scan.dynamicCodeId, bucket, "browser", scan.browser, scans, uniqueScans);
    }
  }
  return { daily: inKeyOrder(daily), quarters: inKeyOrder(quarters) };
}

/** A map's values in the order of their keys (code units, as every writer sorts them). */
function inKeyOrder<T>(rows: Map<string, T>): T[] {
  return [...rows.keys()].sort().map((key) => rows.get(key)!);
}

// Parameters bound per row on SQLite, one JSON parameter per statement on PostgreSQL (see
// RunEach in server/db.ts): Prisma's createMany cost the event loop 100 ms for 500 rows.
const SQL = {
  // The batch's ids already stored, for a JSON array of ids in one parameter (as `subscribers`),
  // between the batch's first and last scan times (the partition key, on PostgreSQL).
  stored: {
    sqlite: `SELECT e."id" AS "id" FROM json_each(?) AS j JOIN "ScanEvent" e ON e."id" = j.value WHERE e."scannedAt" >= ? AND e."scannedAt" <= ?`,
    postgres: `SELECT e."id" AS "id" FROM jsonb_array_elements_text(($1::jsonb -> 0 ->> 0)::jsonb) AS j JOIN "ScanEvent" e ON e."id" = j.value
      WHERE e."scannedAt" >= ($1::jsonb -> 0 ->> 1)::timestamp(3) AND e."scannedAt" <= ($1::jsonb -> 0 ->> 2)::timestamp(3)`,
  },
  visits: insertEach("ScanVisitorDay", ["dynamicCodeId", "day", "visitorHash"], {}, `ON CONFLICT DO NOTHING RETURNING "dynamicCodeId", "day", "visitorHash"`),
  scans: insertEach("ScanEvent", SCAN_COLUMNS, { scannedAt: "timestamp(3)", unique: "boolean" }),
  rollups: insertEach(
    "ScanDaily",
    ["dynamicCodeId", "day", "dimension", "value", "scans", "uniqueScans"],
    { scans: "integer", uniqueScans: "integer" },
    `ON CONFLICT ("dynamicCodeId", "dimension", "day", "value")
      DO UPDATE SET "scans" = "ScanDaily"."scans" + excluded."scans", "uniqueScans" = "ScanDaily"."uniqueScans" + excluded."uniqueScans"`,
  ),
  quarterRollups: insertEach(
    "ScanQuarter",
    ["dynamicCodeId", "quarter", "dimension", "value", "scans", "uniqueScans"],
    { quarter: "integer", scans: "integer", uniqueScans: "integer" },
    `ON CONFLICT ("dynamicCodeId", "dimension", "quarter", "value")
      DO UPDATE SET "scans" = "ScanQuarter"."scans" + excluded."scans", "uniqueScans" = "ScanQuarter"."uniqueScans" + excluded."uniqueScans"`,
  ),
  // The enabled endpoints subscribed to scan.created of each code's library (the library key
  // as server/domain/library.ts writes it), for a JSON array of code ids in one parameter.
  subscribers: dialectSql((dialect) => {
    const ids = dialect === "sqlite" ? `json_each(?)` : `jsonb_array_elements_text((?::jsonb -> 0 ->> 0)::jsonb)`;
    return `SELECT d."id" AS "dynamicCodeId", d."code" AS "code", w."id" AS "endpointId", w."library" AS "library"
      FROM ${ids} AS j JOIN "DynamicCode" d ON d."id" = j.value
      JOIN "WebhookEndpoint" w ON w."library" = CASE WHEN d."teamId" IS NULL THEN 'user:' || d."userId" ELSE 'team:' || d."teamId" END
      WHERE w."enabled" AND w."events" LIKE '%"scan.created"%'`;
  }),
  events: insertEach("WebhookEvent", ["id", "library", "type", "payload", "createdAt"], { createdAt: "timestamp(3)" }),
  deliveries: insertEach("WebhookDelivery", ["id", "endpointId", "eventId", "status", "attempts", "nextAttemptAt"], { attempts: "integer", nextAttemptAt: "timestamp(3)" }),
};

/** Where batches are written: in process by default, or by the background thread (server/background-thread.ts). */
export function setScanWriter(writer: (batch: BufferedScan[]) => Promise<number>): void {
  buffer.write = writer;
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
  buffer.inFlight = batch.length;
  let failed = false;
  const started = (buffer.writeStarted = performance.now());
  buffer.writing = buffer
    .write(batch)
    .then(async (stored) => {
      countScansWritten(stored, (performance.now() - started) / 1000);
      measured(batch.length, (performance.now() - started) / 1000);
      await writerTestPause();
      // FIFO: every spooled scan before the batch's last mark is written.
      const spooled = lastSpooled(batch);
      if (spooled !== undefined) buffer.spool?.written(spooled);
    })
    .catch((error) => {
      logError("scans.write_failed", { count: batch.length }, error);
      for (const scan of batch) scan.fresh = false; // the failure may have come after the commit
      buffer.scans.unshift(...batch); // kept for the next try: nothing accepted is lost
      failed = true;
    });
  try {
    await buffer.writing;
  } finally {
    buffer.writing = null;
    buffer.inFlight = 0;
  }
  buffer.retryAt = failed ? Date.now() + RETRY_MS : 0;
  buffer.failing = failed;
  scheduleFlush();
}

/** Moves the next scans that wait in the spool into the buffer; the backlog is back in memory once the read reaches the last append. */
function loadOverflow(): Promise<void> {
  const overflow = buffer.overflow!;
  return (overflow.loading ??= buffer
    .spool!.read(overflow.cursor, Math.max(1, env.scanMemoryScans - inMemory()))
    .then(({ scans, next }) => {
      overflow.cursor = next;
      overflow.scans = Math.max(0, overflow.scans - scans.length);
      for (const scan of scans) buffer.scans.push(scan);
      // (No turn is spooled between the read's end and this check: both run in one microtask chain.)
      if (next >= buffer.spool!.end()) buffer.overflow = null;
      else if (scans.length === 0) throw new Error("no record where the spool's backlog goes on");
    })
    .catch(async (error) => {
      logError("scans.spool_read_failed", { from: overflow.cursor }, error);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    })
    .finally(() => {
      overflow.loading = null;
      scheduleFlush();
    }));
}

const inMemory = () => buffer.scans.length + buffer.turn.length + buffer.inFlight;

/** Unwritten scans: in memory, and in the spool beyond the bound. */
export function scansBehind(): number {
  return inMemory() + (buffer.overflow?.scans ?? 0);
}
/** A write in flight this long is taken for a database that does not take writes. */
const STUCK_MS = 5000;

/** About how long the unwritten scans take to write at the recent rate (null while writes fail or hang). */
export function secondsBehind(): number | null {
  const stuck = buffer.inFlight > 0 && performance.now() - buffer.writeStarted > STUCK_MS;
  if (buffer.failing || stuck || (buffer.rate === 0 && scansBehind() > 0)) return null;
  return Math.round((scansBehind() / Math.max(buffer.rate, 1)) * 10) / 10;
}

/** The writer's rate, a moving average over batches (each weighs by its size). */
function measured(stored: number, seconds: number): void {
  if (stored === 0 || seconds <= 0) return;
  const weight = Math.min(1, stored / 5000);
  buffer.rate = buffer.rate === 0 ? stored / seconds : buffer.rate * (1 - weight) + (stored / seconds) * weight;
}

function lastSpooled(batch: BufferedScan[]): number | undefined {
  for (let i = batch.length - 1; i >= 0; i--) if (batch[i].spooled !== undefined) return batch[i].spooled;
  return undefined;
}

/** SCAN_WRITER_TEST_PAUSE_MS (tests only): the writer waits after a batch's commit, before its checkpoint. */
const writerTestPause = () => (env.scanWriterTestPauseMs > 0 ? new Promise((resolve) => setTimeout(resolve, env.scanWriterTestPauseMs)) : Promise.resolve());

/**
 * Writes scans a crashed predecessor left in the spool, between the buffer's batches (one
 * writer at a time), trying again until the database takes them; the number newly stored.
 */
export async function writeReplayedScans(batch: BufferedScan[]): Promise<number> {
  for (;;) {
    while (buffer.writing) await buffer.writing;
    let stored = -1;
    const started = performance.now();
    buffer.writing = buffer.write(batch).then(
      async (count) => {
        stored = count;
        countScansWritten(count, (performance.now() - started) / 1000);
        await writerTestPause();
      },
      (error) => logError("scans.replay_write_failed", { count: batch.length }, error),
    );
    try {
      await buffer.writing;
    } finally {
      buffer.writing = null;
    }
    if (stored >= 0) return stored;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

/**
 * Before exit: write until nothing is left (scans answered meanwhile are included) or the time
 * is up, whatever a write in progress does; the number left unwritten (in the spool, with one,
 * for the next start).
 */
export async function drainScans(deadlineMs = 10_000): Promise<number> {
  const end = Date.now() + deadlineMs;
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadlineMs))));
  const drain = async () => {
    while ((scansBehind() > 0 || buffer.writing) && Date.now() < end) {
      if (buffer.turn.length > 0) await new Promise((resolve) => setImmediate(resolve));
      if (buffer.scans.length === 0 && buffer.overflow) await loadOverflow();
      await flushScans();
      if (buffer.failing) await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MS, Math.max(0, end - Date.now()))));
    }
  };
  await Promise.race([drain(), timeUp]);
  clearTimeout(timer);
  return scansBehind();
}
