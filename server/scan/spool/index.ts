// The scan spool (contract: "Short links that never fail and never lose a scan"): the
// production server appends each turn's scans to files under SCAN_SPOOL_DIR before their
// redirects are answered (server/scan/recorder.ts), so a killed process loses none; a new
// process serves at once and writes what its predecessor left in the background, exactly
// once (writeScans skips ids already stored). SCAN_SPOOL_FSYNC_MS bounds what a crash of the
// machine itself can lose. A spool that cannot be written (read-only, full disk) does not
// stop a redirect: its scans stay in memory, /readyz says `"spool": "unwritable"`,
// qr_scan_spool_errors_total counts them, and a line is logged at most once a minute.
// The files hold what the in-memory buffer holds, client addresses included (they become a
// visitor hash and a country when written): the directory and files are the process's only.
import { env } from "../../platform/env";
import { logError, logInfo, logWarn } from "../../platform/log";
import { countSpoolErrors } from "../../platform/metrics";
import { processSingleton } from "../../platform/process-singleton";
import { setScanSpool, writeReplayedScans } from "../recorder";
import type { BufferedScan } from "../rows";
import { Spool } from "./spool";

/** Scans written per transaction while replaying (at least; a turn's record is not split). */
const REPLAY_BATCH = 1000;
/** Read back at a time, of a backlog beyond the memory bound (about 3,000 scans). */
const BACKLOG_READ_BYTES = 1024 * 1024;
/** The checkpoint moves at most once a second (a crash replays at most a second more, and stored scans are skipped). */
const CHECKPOINT_MS = 1000;
/** A replay that failed outside the database starts again after this long. */
const REPLAY_RETRY_MS = 10_000;
const LOG_EVERY_MS = 60_000;

const state = processSingleton("scans.spool", () => ({
  spool: null as Spool | null,
  replaying: false,
  loggedAt: 0,
  unlogged: 0,
}));

type Fields = [string, string, number, string, string, string, string | null];

/** A turn's scans as one record (one JSON array per scan): one buffer and one checksum a turn, not one a scan. */
const encode = (scans: BufferedScan[]) =>
  Buffer.from(
    JSON.stringify(
      scans.map((s): Fields => [
        s.id,
        s.dynamicCodeId,
        s.scannedAt,
        s.destinationUrl,
        s.userAgent,
        s.address,
        s.countryHeader,
      ]),
    ),
  );

const scanOf = ([
  id,
  dynamicCodeId,
  scannedAt,
  destinationUrl,
  userAgent,
  address,
  countryHeader,
]: Fields): BufferedScan => ({ id, dynamicCodeId, scannedAt, destinationUrl, userAgent, address, countryHeader });

/** A record's scans: a turn's (an array of scans), or one scan (as spools written before turns were one record hold). */
function decode(payload: Buffer): BufferedScan[] {
  const value = JSON.parse(payload.toString("utf8")) as Fields | Fields[];
  return Array.isArray(value[0]) ? (value as Fields[]).map(scanOf) : [scanOf(value as Fields)];
}

function decodeOrSkip(payload: Buffer): BufferedScan[] {
  try {
    return decode(payload);
  } catch (error) {
    logError("scans.spool_record_unreadable", {}, error); // whole and checksummed, yet not scans: skipped
    return [];
  }
}

/** One log line a minute at most, with how many failures it stands for. */
function failed(error: unknown, what: string, scans: number): void {
  countSpoolErrors(Math.max(scans, 1));
  state.unlogged += Math.max(scans, 1);
  if (Date.now() - state.loggedAt < LOG_EVERY_MS) return;
  logError("scans.spool_failed", { what, dir: env.scanSpoolDir, failures: state.unlogged }, error);
  state.loggedAt = Date.now();
  state.unlogged = 0;
}

/**
 * Opens SCAN_SPOOL_DIR (throws SpoolInUseError when another live process holds it), routes
 * the recorder's scans through it, and replays what a predecessor left, in the background.
 */
export function startSpool(): void {
  const spool = new Spool(env.scanSpoolDir, {
    fsyncMs: env.scanSpoolFsyncMs,
    checkpointMs: CHECKPOINT_MS,
    onError: (error, what) => failed(error, what, 0),
    onTorn: (file, offset, reason) => logWarn("scans.spool_torn_record", { file, offset, reason }),
    onLeftovers: () => void replay(spool),
  });
  state.spool = spool;
  const leftovers = spool.open();
  if (!spool.writable) failed(spool.lastError, "open", 0);
  setScanSpool({
    append(scans) {
      const position = spool.append([encode(scans)]);
      if (position === null) failed(spool.lastError, "write", scans.length);
      return position;
    },
    sync: env.scanSpoolFsyncMs === 0 ? () => spool.sync() : null,
    written: (position) => spool.written(position),
    end: () => spool.end(),
    async read(from, most) {
      const read = await spool.read(from, BACKLOG_READ_BYTES);
      const scans: BufferedScan[] = [];
      for (const record of read.records) {
        const turn = decodeOrSkip(record.payload);
        if (turn.length > 0) turn[turn.length - 1].spooled = record.end;
        for (const scan of turn) scans.push(scan);
        if (scans.length >= most) return { scans, next: record.end }; // the rest is read again next time
      }
      return { scans, next: read.next };
    },
  });
  if (leftovers) void replay(spool);
}

async function replay(spool: Spool): Promise<void> {
  if (state.replaying) return;
  state.replaying = true;
  const started = performance.now();
  let read = 0;
  let stored = 0;
  try {
    for await (const { records } of spool.leftovers()) {
      // Records (a turn's scans each) gathered up to REPLAY_BATCH scans a write.
      let scans: BufferedScan[] = [];
      for (const [i, record] of records.entries()) {
        for (const scan of decodeOrSkip(record.payload)) scans.push(scan);
        if (scans.length < REPLAY_BATCH && i < records.length - 1) continue;
        read += scans.length;
        if (scans.length > 0) stored += await writeReplayedScans(scans);
        spool.replayed(record.end);
        scans = [];
      }
    }
    spool.replayDone();
    const seconds = (performance.now() - started) / 1000;
    logInfo("scans.spool_replayed", {
      scans: read,
      stored,
      alreadyStored: read - stored,
      seconds: Math.round(seconds * 1000) / 1000,
    });
  } catch (error) {
    // Not the database (its writes wait through an outage): the segments stay, so try again.
    logError("scans.spool_replay_failed", { read, stored, retryInSeconds: REPLAY_RETRY_MS / 1000 }, error);
    setTimeout(() => void replay(spool), REPLAY_RETRY_MS).unref();
  } finally {
    state.replaying = false;
  }
}

/** For /readyz: null without a spool (`next dev`), else whether scans reach it. */
export function spoolCheck(): "ok" | "unwritable" | null {
  const spool = state.spool;
  return spool === null ? null : spool.writable ? "ok" : "unwritable";
}

/** After the last scan is written (a clean exit): the directory free for the next process. */
export function closeSpool(): void {
  state.spool?.close();
}
