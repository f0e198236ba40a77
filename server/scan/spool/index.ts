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
import { env } from "../../env";
import { logError, logInfo, logWarn } from "../../log";
import { countSpoolErrors } from "../../metrics";
import { processSingleton } from "../../process-singleton";
import { setScanSpool, writeReplayedScans, type BufferedScan } from "../recorder";
import { Spool, SpoolInUseError } from "./spool";

export { SpoolInUseError };

/** Scans written per transaction while replaying. */
const REPLAY_BATCH = 1000;
/** A replay that failed outside the database starts again after this long. */
const REPLAY_RETRY_MS = 10_000;
const LOG_EVERY_MS = 60_000;

const state = processSingleton("scans.spool", () => ({ spool: null as Spool | null, replaying: false, loggedAt: 0, unlogged: 0 }));

const encode = (s: BufferedScan) => Buffer.from(JSON.stringify([s.id, s.dynamicCodeId, s.scannedAt, s.destinationUrl, s.userAgent, s.address, s.countryHeader]));

function decode(payload: Buffer): BufferedScan {
  const [id, dynamicCodeId, scannedAt, destinationUrl, userAgent, address, countryHeader] = JSON.parse(payload.toString("utf8")) as [string, string, number, string, string, string, string | null];
  return { id, dynamicCodeId, scannedAt, destinationUrl, userAgent, address, countryHeader };
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
    onError: (error, what) => failed(error, what, 0),
    onTorn: (file, offset, reason) => logWarn("scans.spool_torn_record", { file, offset, reason }),
    onLeftovers: () => void replay(spool),
  });
  state.spool = spool;
  const leftovers = spool.open();
  if (!spool.writable) failed(spool.lastError, "open", 0);
  setScanSpool({
    append(scans) {
      const position = spool.append(scans.map(encode));
      if (position === null) failed(spool.lastError, "write", scans.length);
      return position;
    },
    sync: env.scanSpoolFsyncMs === 0 ? () => spool.sync() : null,
    written: (position) => spool.written(position),
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
      for (let i = 0; i < records.length; i += REPLAY_BATCH) {
        const chunk = records.slice(i, i + REPLAY_BATCH);
        const scans: BufferedScan[] = [];
        for (const record of chunk) {
          try {
            scans.push(decode(record.payload));
          } catch (error) {
            logError("scans.spool_record_unreadable", {}, error); // whole and checksummed, yet not a scan: skipped
          }
        }
        read += scans.length;
        if (scans.length > 0) stored += await writeReplayedScans(scans);
        spool.replayed(chunk[chunk.length - 1].end);
      }
    }
    spool.replayDone();
    const seconds = (performance.now() - started) / 1000;
    logInfo("scans.spool_replayed", { scans: read, stored, alreadyStored: read - stored, seconds: Math.round(seconds * 1000) / 1000 });
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
