// code → destination, cached in process: the redirect must not wait on the database for
// every scan. Every change of destination, status or deletion invalidates the entry at once,
// here and, with REDIS_URL, in every other instance through Redis pub/sub. While an instance
// is not subscribed (Redis away, or reconnecting) it cannot hear of changes, so it does not
// trust its cache: it asks the database each time, and empties the cache once it is back.
// While PostgreSQL is unreachable, a code is read from the copy of every code kept in Redis
// (server/scan/live-copy), and the database is tried again at most once a second.
// Several processes on one SQLite file (no Redis): each change rewrites a small file beside the
// database (`<file>.servers/changes`), which every process reads four times a second; a new
// content empties its cache, so a change reaches every process within a second.
import { readFile, writeFile } from "node:fs/promises";
import { db, dialect, isDatabaseUnreachable } from "../platform/db";
import { sqliteFileOf } from "../platform/database-url";
import { nextTurn } from "../platform/event-loop";
import { env } from "../platform/env";
import { logError } from "../platform/log";
import { processSingleton } from "../platform/process-singleton";
import { isCodeShaped } from "../library/backHalf";
import { redis, redisPrefix, redisSubscriber, whenReady } from "../platform/redis";
import { copiedResolution, refreshCopy } from "./live-copy";
import { linkKey, RESOLUTION_COLUMNS, resolutionOf, type Resolution } from "./resolution";

const MAX_ENTRIES = 50_000;
/** After a failed read, the database is not asked again before this long (the copy answers). */
const OUTAGE_PROBE_MS = 1000;

type Cache = {
  /** By link key (linkKey: the code, or `<domain>/<code>` on a custom domain). */
  entries: Map<string, Resolution>;
  /** A code's keys on custom domains: changes are told by code alone, and forget them all. */
  domainKeys: Map<string, Set<string>>;
  /** Until when the database is taken for unreachable. */
  unreachableUntil: number;
  /** Bumped by every invalidation: a lookup that raced one must not cache what it read. */
  generation: number;
  subscription?: { live: boolean };
};
// One per process: Next and the Node server each load this module; the cache must be one.
const state: Cache = processSingleton("resolve.cache", () => ({
  entries: new Map(),
  domainKeys: new Map(),
  generation: 0,
  unreachableUntil: 0,
}));
const cache = state.entries;
const channel = () => `${redisPrefix()}resolutions:invalidate`;

/** Other caches told of the same changes (server/domains/hosts.ts): a key, or null for "forget everything". */
const listeners = processSingleton("resolve.listeners", () => new Set<(key: string | null) => void>());
export const onInvalidation = (listener: (key: string | null) => void) => void listeners.add(listener);

const forget = (code: string) => {
  state.generation++;
  cache.delete(code);
  for (const key of state.domainKeys.get(code) ?? []) cache.delete(key);
  state.domainKeys.delete(code);
  for (const listener of listeners) listener(code);
};

const emptyCache = () => {
  state.generation++;
  cache.clear();
  state.domainKeys.clear();
  for (const listener of listeners) listener(null);
};

function remember(key: string, code: string, resolution: Resolution): void {
  if (cache.size >= MAX_ENTRIES) {
    const oldest = cache.keys().next().value!;
    cache.delete(oldest);
    const slash = oldest.indexOf("/");
    if (slash >= 0) state.domainKeys.get(oldest.slice(slash + 1))?.delete(oldest);
  }
  cache.set(key, resolution);
  if (key === code) return;
  const keys = state.domainKeys.get(code) ?? new Set<string>();
  state.domainKeys.set(code, keys.add(key));
}

/** The file every process on one SQLite file rewrites at each change, and reads often. */
const changesFile = () => `${sqliteFileOf(env.databaseUrl)}.servers/changes`;
const CHANGES_POLL_MS = 250;
const local = processSingleton("resolve.local", () => ({ watching: false, seen: "", written: 0 }));

/** Without Redis, on SQLite: another process's change (the changes file's new content) empties the cache. */
function watchLocalChanges(): void {
  if (local.watching || env.redisUrl || dialect !== "sqlite") return;
  local.watching = true;
  const read = () => readFile(changesFile(), "utf8").catch(() => "");
  void read().then((first) => {
    local.seen = first;
    setInterval(() => {
      void read().then((now) => {
        if (now === local.seen) return;
        local.seen = now;
        emptyCache();
      });
    }, CHANGES_POLL_MS).unref();
  });
}

/** Tells the other processes on this SQLite file (a new content; the folder exists while a server runs). */
async function tellLocalProcesses(): Promise<void> {
  if (env.redisUrl || dialect !== "sqlite") return;
  await writeFile(changesFile(), `${process.pid} ${Date.now()} ${++local.written}\n`).catch(() => undefined);
}

/** With REDIS_URL: listens for other instances' changes (at once when the server starts); else, on SQLite, for other processes'. */
export function subscribeToChanges(): void {
  watchLocalChanges();
  if (env.redisUrl && !state.subscription) {
    const subscription: { live: boolean } = (state.subscription = { live: false });
    const subscriber = redisSubscriber()!;
    subscriber.on("message", (_channel: string, code: string) => forget(code));
    // On every (re)connection: trust the cache again only once Redis has confirmed the
    // subscription, and forget what may have changed while we could not hear.
    subscriber.on("ready", () => {
      subscriber.subscribe(channel()).then(
        () => {
          emptyCache();
          subscription.live = true;
        },
        (error) => logError("resolutions.subscribe_failed", {}, error),
      );
    });
    subscriber.on("close", () => (subscription.live = false));
  }
}

/** True when no other instance can change a code unseen: no Redis, or subscribed to it. */
export function cacheTrusted(): boolean {
  if (!env.redisUrl) return true;
  subscribeToChanges();
  return state.subscription!.live;
}

/** `code` on `domain` ("" for the service's own base, /q/). */
export async function resolveCode(code: string, domain = ""): Promise<Resolution> {
  // With other instances: Redis writes an invalidation to us in the same instant it confirms
  // it to the instance that made the change, so by the time that change's HTTP answer has led
  // to a scan here, the message is usually waiting on our socket too. Let it be read first:
  // I/O that is ready is handled before setImmediate callbacks.
  if (env.redisUrl) await nextTurn();
  const trusted = cacheTrusted();
  const generation = state.generation;
  const key = linkKey(domain, code);
  const hit = trusted ? cache.get(key) : undefined;
  if (hit) return hit;
  if (!isCodeShaped(code)) return { state: "unknown" };
  let resolution: Resolution;
  try {
    if (Date.now() < state.unreachableUntil) {
      const copied = await copiedResolution(key);
      if (copied) return copied;
    }
    resolution = resolutionOf(
      await db.dynamicCode.findUnique({ where: { domain_code: { domain, code } }, select: RESOLUTION_COLUMNS }),
    );
  } catch (error) {
    if (!isDatabaseUnreachable(error)) throw error;
    state.unreachableUntil = Date.now() + OUTAGE_PROBE_MS;
    return outageResolution(key, error);
  }
  if (cacheTrusted() && generation === state.generation && resolution.state !== "unknown")
    remember(key, code, resolution);
  return resolution;
}

/** During an outage: the copy's answer (not cached: the cache follows the database), or the database's error. */
async function outageResolution(key: string, error: unknown): Promise<Resolution> {
  const copied = await copiedResolution(key);
  if (copied) return copied;
  throw error;
}

/**
 * After the database has the change: this instance at once, the others through Redis (by code:
 * its keys on every domain are forgotten, codes being unique within a library). The
 * caller's answer waits for Redis to take the message (bounded), so by the time the change is
 * acknowledged the other instances have been told.
 */
export async function invalidateResolution(code: string): Promise<void> {
  forget(code);
  if (redis()) await refreshCopy([code]);
  await tellInstances(code);
}

/** A change of `key` (a code, or another cache's key such as `host:<domain>`) to this instance and every other. */
export async function tellInstances(code: string): Promise<void> {
  forget(code);
  const client = redis();
  if (!client) return tellLocalProcesses();
  try {
    await whenReady(client);
    await client.publish(channel(), code);
  } catch (error) {
    // Subscribers that cannot be told are in the same outage: they are not trusting their caches.
    logError("resolutions.publish_failed", { code }, error);
  }
}
