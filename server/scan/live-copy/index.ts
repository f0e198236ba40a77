// What a redirect needs of every code, kept where a redirect can read it while PostgreSQL is
// down (contract: "Short links that never fail and never lose a scan"): one Redis hash, a
// field per link (linkKey: the code, or `<domain>/<code>`) holding its `Resolution` (server/scan/resolve.ts) as JSON, the very value the
// redirect's cache holds, so whatever that type gains reaches the copy with it. It is written
// where every change already invalidates the caches (invalidateResolution, read back from the
// database after the change) and when codes are created; each instance loads it once if it
// is not complete (HSETNX, so a load never overwrites a newer change), and a marker says it
// is complete.
//
// Why Redis and not a full copy in each instance kept current by the pub/sub: the copy in
// Redis costs a change one indexed read and one HSET (≈ 0.3 ms) and nothing on the redirect's
// hot path outside an outage; a copy per instance costs each instance memory for every code
// ever made (≈ 200 bytes each: 200 MB per instance at a million codes), a full read of the
// table at every start, and again after every Redis reconnection (changes heard by nobody
// while it was away). Only PostgreSQL with Redis keeps one: the embedded SQLite database is a
// file, and cannot be "down" while the server runs.
import { db } from "../../platform/db";
import { env } from "../../platform/env";
import { logError, logInfo } from "../../platform/log";
import { processSingleton } from "../../platform/process-singleton";
import { redis, redisPrefix, whenReady } from "../../platform/redis";
import { linkKey, RESOLUTION_COLUMNS, resolutionOf, type Resolution } from "../resolution";

const PAGE = 5000;
/** How often each instance checks that the copy is still complete (a Redis restarted empty). */
const CHECK_MS = 5000;
const hashKey = () => `${redisPrefix()}resolutions`;
const completeKey = () => `${redisPrefix()}resolutions:complete`;

/** After a load's first failure, the next try comes this soon. */
const RETRY_MS = 1000;

/**
 * How long a change's copy waits for a Redis connection that is being made (the process's
 * first moments, a reconnection): its command would fail at once (no offline queue).
 */
const READY_WAIT_MS = 2000;

const state = processSingleton("scan.liveCopy", () => ({
  started: false,
  complete: false,
  loading: null as Promise<void> | null,
  stale: new Set<string>(),
  failures: 0,
  retryOnReady: false,
}));

const kept = () => env.backend === "postgres" && env.redisUrl !== null;

/** A code's row as resolveCode reads it (RESOLUTION_COLUMNS). */
type Row = NonNullable<Parameters<typeof resolutionOf>[0]> & { code: string; domain: string };

async function write(rows: Row[], onlyNew: boolean): Promise<void> {
  const client = redis()!;
  if (rows.length === 0) return;
  await whenReady(client, READY_WAIT_MS);
  if (!onlyNew) {
    await client.hset(
      hashKey(),
      Object.fromEntries(rows.map((row) => [linkKey(row.domain, row.code), JSON.stringify(resolutionOf(row))])),
    );
    return;
  }
  const pipeline = client.pipeline();
  for (const row of rows) pipeline.hsetnx(hashKey(), linkKey(row.domain, row.code), JSON.stringify(resolutionOf(row)));
  for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
}

/** After a change is committed: the copy of `codes` as the database now has them. */
export async function refreshCopy(codes: string[]): Promise<void> {
  if (!kept() || codes.length === 0) return;
  try {
    await write(await db.dynamicCode.findMany({ where: { code: { in: codes } }, select: RESOLUTION_COLUMNS }), false);
    for (const code of codes) state.stale.delete(code);
  } catch (error) {
    keepStale(codes);
    logError("resolutions.copy_failed", { codes: codes.length }, error);
  }
}

/**
 * Codes whose copy may hold what they were before a change: written again once Redis is ready,
 * in any process that made a change (a script, the bench; a server's ensureCopy does too). Until
 * then the copy would send a scan during a database outage to the old destination.
 */
function keepStale(codes: string[]): void {
  for (const code of codes) state.stale.add(code);
  if (state.retryOnReady) return;
  state.retryOnReady = true;
  redis()!.once("ready", () => {
    state.retryOnReady = false;
    if (state.stale.size > 0) void refreshCopy([...state.stale]);
  });
}

/** After codes are created (committed): their copy, from the rows just written. */
export async function copyCreated(rows: Omit<Row, "deletedAt">[]): Promise<void> {
  if (!kept()) return;
  try {
    await write(
      rows.map((row) => ({ ...row, deletedAt: null })),
      false,
    );
  } catch (error) {
    keepStale(rows.map((row) => row.code));
    logError("resolutions.copy_failed", { codes: rows.length }, error);
  }
}

/** A link's resolution (by linkKey) from the copy while the database is unreachable; null when there is no complete copy. */
export async function copiedResolution(key: string): Promise<Resolution | null> {
  if (!kept() || !state.complete) return null;
  try {
    const json = await redis()!.hget(hashKey(), key);
    return json ? (JSON.parse(json) as Resolution) : { state: "unknown" };
  } catch {
    return null; // Redis away too: the redirect answers 503, as without a copy
  }
}

/** For /readyz: every code can be served without the database. */
export const copyLoaded = (): boolean => kept() && state.complete && redis()?.status === "ready";

/** Loads the copy if it is not complete; writes what failed to reach it. */
function ensureCopy(): Promise<void> {
  state.loading ??= (async () => {
    const client = redis()!;
    try {
      if (state.stale.size > 0) await refreshCopy([...state.stale]);
      if ((await client.get(completeKey())) === "1") {
        state.complete = true;
        return;
      }
      state.complete = false;
      const started = performance.now();
      let after: string | null = null;
      let codes = 0;
      for (;;) {
        const rows: Row[] = await db.dynamicCode.findMany({
          where: after === null ? {} : { id: { gt: after } },
          orderBy: { id: "asc" },
          take: PAGE,
          select: RESOLUTION_COLUMNS,
        });
        if (rows.length === 0) break;
        await write(rows, true);
        codes += rows.length;
        after = rows[rows.length - 1].id;
      }
      await client.set(completeKey(), "1");
      state.complete = true;
      logInfo("resolutions.copy_loaded", { codes, seconds: Math.round(performance.now() - started) / 1000 });
      state.failures = 0;
    } catch (error) {
      // A first failure is mostly a command's 250 ms run out while the event loop was held (a
      // busy start compiles queries): tried again a second later, logged when that fails too.
      if (++state.failures > 1) logError("resolutions.copy_load_failed", { failures: state.failures }, error);
      else setTimeout(() => void ensureCopy(), RETRY_MS).unref();
    } finally {
      state.loading = null;
    }
  })();
  return state.loading;
}

/** With PostgreSQL and Redis: the copy loaded now, and checked from then on; resolves after the first load. */
export function startLiveCopy(): Promise<void> {
  if (!kept() || state.started) return Promise.resolve();
  state.started = true;
  redis()!.on("ready", () => void ensureCopy());
  setInterval(() => void ensureCopy(), CHECK_MS).unref();
  return ensureCopy();
}
