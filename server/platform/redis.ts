// Redis, when REDIS_URL is set (redis://, or rediss:// for TLS, Upstash included): shared by
// every instance for cache invalidation and rate limits. Connections are made on first use,
// one of each per process (processSingleton: Next and the Node server each load this module).
// Commands fail fast while Redis is away (no offline queue); callers fall back.
import { Redis } from "ioredis";
import { env } from "./env";
import { logError } from "./log";
import { processSingleton } from "./process-singleton";

type Connections = { commands?: Redis; subscriber?: Redis; everReady: WeakSet<Redis> };
const connections: Connections = processSingleton("redis.connections", () => ({ everReady: new WeakSet() }));

/**
 * Lua scripts run as commands, given to the command connection when it is made. Defined on a
 * live connection instead, the auto-pipeline already open in that tick lacks the command:
 * ioredis then failed the whole pipeline ("pipeline[functionName] is not a function") and threw
 * an uncaught error, and a request waiting on that pipeline never got its answer.
 */
const scripts = processSingleton("redis.scripts", () => ({}) as Record<string, { numberOfKeys?: number; lua: string }>);
/** Scripts whose callers already send one command per turn: sent at once, not a turn later through the auto-pipeline. */
const unpipelined = processSingleton("redis.unpipelined", () => [] as string[]);

/**
 * Registers a script, at a module's load (a second copy of the module finds it on the
 * connection already). Without `numberOfKeys`, each call names its number of keys first.
 * `batched`: its caller gathers a turn's work into one call (server/rate-limit/index.ts).
 */
export function defineScript(name: string, numberOfKeys: number | undefined, lua: string, batched = false): void {
  scripts[name] = { numberOfKeys, lua };
  if (batched && !unpipelined.includes(name)) unpipelined.push(name);
  const live = connections.commands as (Redis & Record<string, unknown>) | undefined;
  if (live && !live[name]) live.defineCommand(name, { numberOfKeys, lua });
}

/** Every key and channel name starts with this (tests give each run its own). */
export const redisPrefix = () => env.redisKeyPrefix;

function connect(role: string): Redis | undefined {
  const url = env.redisUrl;
  if (!url) return undefined;
  const client = new Redis(url, {
    connectTimeout: 500,
    maxRetriesPerRequest: 1,
    // A slow Redis must not hold requests up: callers fall back (rate limits: in process).
    commandTimeout: role === "subscriber" ? undefined : 250,
    enableOfflineQueue: role === "subscriber", // a subscriber must queue its SUBSCRIBE
    // The commands of requests that arrive together leave in one write, except the batched
    // scripts' (one command per turn already). The list is read at every call: shared, so a
    // script defined after the connection is made is in it too.
    enableAutoPipelining: role !== "subscriber",
    autoPipeliningIgnoredCommands: unpipelined,
    scripts: role === "subscriber" ? {} : { ...scripts },
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
  });
  let down = false;
  client.on("error", (error) => {
    if (!down) logError("redis.unavailable", { role }, error);
    down = true;
  });
  client.on("ready", () => {
    down = false;
    connections.everReady.add(client);
  });
  return client;
}

/** The connection for commands, or undefined without REDIS_URL. */
export const redis = (): Redis | undefined => (connections.commands ??= connect("commands"));

/** A connection in subscriber mode (it can run no other command). */
export const redisSubscriber = (): Redis | undefined => (connections.subscriber ??= connect("subscriber"));

/** Whether this connection has never been ready: made for the first time, not lost. */
export const neverReady = (client: Redis): boolean => !connections.everReady.has(client);

/**
 * Waits (at most `ms`) for a connection that is still being made. When the time is up, a
 * grace of a tenth of it (at most 1 s) follows: an event loop held up past the bound (a start's
 * module loading, a loaded machine) runs the timer before the connection's I/O, which still
 * needs a round trip (the ready check) once the loop is free, and took a coming connection for
 * a missing one.
 */
export function whenReady(client: Redis, ms = 500): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  return new Promise((resolve, reject) => {
    let timer = setTimeout(() => {
      timer = setTimeout(
        () => {
          client.off("ready", onReady);
          if (client.status === "ready") resolve();
          else reject(new Error(`Redis not ready within ${ms} ms (${client.status})`));
        },
        Math.min(ms / 10, 1000),
      );
    }, ms);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    client.once("ready", onReady);
  });
}

/** Closes this process's connections (scripts and tests that are done with them). */
export function closeRedis(): void {
  connections.commands?.disconnect();
  connections.subscriber?.disconnect();
  connections.commands = connections.subscriber = undefined;
}
