// Scan recording off the redirect's critical path. With the spool (server/scan/spool, started
// by the production server), the scans of one event-loop turn are appended to it in one write
// before their redirects are answered; then they join an in-memory buffer that is written in
// batches (every 200 ms or 500 scans) in one transaction each (write.ts), by the background
// thread (server/http/background-thread.ts), and each written batch moves the spool's checkpoint. A
// failed write keeps the batch for the next try. On SIGTERM or SIGINT the buffer is drained before the
// process exits (server/http/server.ts). A crash loses nothing the spool holds: the next
// start writes it, and a scan's id makes that exactly once (writeScans skips stored ids).
// Without a spool (`next dev`, serverless, or a spool that cannot be written) a hard crash
// loses what is still in the buffer: normally the last 200 ms of scans.
// Memory is bounded whatever the database does: beyond SCAN_MEMORY_SCANS unwritten scans, each
// turn's scans are only appended to the spool, and the writer reads them back from it, in
// order, as the buffer empties (a backlog of minutes costs disk, not memory).
import { env } from "../platform/env";
import { logError } from "../platform/log";
import { countScansWritten, watchScanBuffer } from "../platform/metrics";
import { processSingleton } from "../platform/process-singleton";
import { newScan, type BufferedScan, type ScanInput } from "./rows";
import { writeScans } from "./write";

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
  /** Where batches are written: in process by default, or by the background thread (server/http/background-thread.ts). Resolves to the number newly stored. */
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
const buffer: ScanBuffer = processSingleton("scans.buffer", () => ({
  scans: [],
  timer: null,
  writing: null,
  write: writeScans,
  spool: null,
  turn: [],
  turnSpooled: null,
  retryAt: 0,
  overflow: null,
  rate: 0,
  failing: false,
  inFlight: 0,
  writeStarted: 0,
}));
watchScanBuffer(
  () => ({ memory: inMemory(), spool: buffer.overflow?.scans ?? 0 }),
  () => secondsBehind(),
);

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

/** A full batch is written now; anything less within FLUSH_INTERVAL_MS. */
function scheduleFlush(): void {
  if (
    buffer.overflow &&
    !buffer.failing &&
    env.scanMemoryScans - inMemory() >= Math.min(FLUSH_SIZE, env.scanMemoryScans / 2)
  )
    void loadOverflow();
  const wait = buffer.retryAt - Date.now();
  if (buffer.scans.length >= FLUSH_SIZE && wait <= 0) void flushScans();
  else if (buffer.scans.length > 0)
    buffer.timer ??= setTimeout(() => void flushScans(), Math.max(FLUSH_INTERVAL_MS, wait));
}

/** Where batches are written: in process by default, or by the background thread (server/http/background-thread.ts). */
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
const writerTestPause = () =>
  env.scanWriterTestPauseMs > 0
    ? new Promise((resolve) => setTimeout(resolve, env.scanWriterTestPauseMs))
    : Promise.resolve();

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
      if (buffer.failing)
        await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MS, Math.max(0, end - Date.now()))));
    }
  };
  await Promise.race([drain(), timeUp]);
  clearTimeout(timer);
  return scansBehind();
}
