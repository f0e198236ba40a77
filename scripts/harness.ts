// What the test runner, the tests and the benchmarks start: a fresh database, the production
// server (server/http/server.ts) on a free port, a Redis of their own. Tests that need a
// server of their own (to stop it, or to run it with other settings) start another on the
// same database as the main one.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { backendOf, pgConfigFromUrl } from "../server/platform/database-url";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/**
 * The Node options every start of the server runs with: those of `npm start` (package.json's
 * script, which the systemd unit repeats), so that tests and benchmarks measure the server as
 * it is deployed. `--max-semi-space-size=2`: V8 gives the main thread a 32 MB young
 * generation by default; 4 MB took about 55 MB off each instance's resident memory
 * (docs/RELIABILITY.md, "Memory").
 */
export const SERVER_NODE_OPTIONS: string[] = (() => {
  const words = (
    JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { scripts: { start: string } }
  ).scripts.start.split(" ");
  return words.slice(1, words.indexOf("--import"));
})();

export type RunningServer = {
  base: string;
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
  stop: () => Promise<number | null>;
  /** Everything the server wrote to stdout and stderr so far (stderr is also shown). */
  output: () => string;
};

/** `cwd`: another working directory (its ./data is the server's), laid out like the repository. */
export async function startServer(
  env: Record<string, string | undefined> = {},
  port?: number,
  cwd?: string,
): Promise<RunningServer> {
  if (port !== undefined) return startServerOn(env, port, cwd);
  // A free port is free only until someone binds it: a server started beside this one may take
  // it first. Such a start fails with EADDRINUSE (it never printed "Ready"), and is made again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOn(env, await freePort(), cwd);
    } catch (error) {
      if (attempt === 3 || !String(error).includes("EADDRINUSE")) throw error;
    }
  }
}

async function startServerOn(
  env: Record<string, string | undefined>,
  port: number,
  cwd?: string,
): Promise<RunningServer> {
  // SERVER_NODE_ARGS: extra Node options for the server (say --cpu-prof, which NODE_OPTIONS refuses).
  const nodeArgs = process.env.SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  // Each server a scan spool of its own (two never share one), removed when it exits, unless
  // the caller names one (to restart on it).
  const ownSpool = env.SCAN_SPOOL_DIR === undefined ? mkdtempSync(path.join(tmpdir(), "qr-spool-")) : null;
  if (ownSpool) env = { ...env, SCAN_SPOOL_DIR: ownSpool };
  const child = spawn(
    process.execPath,
    [
      ...SERVER_NODE_OPTIONS,
      ...nodeArgs,
      "--import",
      "tsx",
      "server/http/server.ts",
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
    ],
    {
      // PORT too, as `npm start` gives it: APP_URL's default follows it.
      // No drain window by default (tests stop many servers; the tests of draining set one), and
      // no access lines unless a test asks for them (LOG_LEVEL).
      env: {
        ...process.env,
        PORT: String(port),
        SHUTDOWN_DRAIN_SECONDS: "0",
        LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
        ...env,
        NODE_ENV: "production",
      },
      stdio: ["ignore", "pipe", "pipe"],
      cwd,
    },
  );
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk;
    process.stderr.write(chunk);
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      if (ownSpool) rmSync(ownSpool, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  // SERVER_START_SECONDS: more than a minute on a machine that many share. One that does not
  // start in time is stopped, not left behind.
  const startSeconds = Number(process.env.SERVER_START_SECONDS ?? 60);
  const deadline = Date.now() + startSeconds * 1000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with ${child.exitCode}: ${output.trim().split("\n").pop()}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not start within ${startSeconds} s`);
    }
    // Its own "Ready" line first: an answer on the port could come from another server that took it.
    try {
      if (
        output.includes("> Ready on") &&
        (await fetch(`${base}/v1/openapi.json`, { signal: AbortSignal.timeout(10_000) })).ok
      )
        break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    child,
    port,
    exited,
    stop: () => {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill("SIGTERM");
      // A server bounds its own stop (its drain, then server/http/server.ts's STOP_MS): one still
      // running well past that is stuck, and is killed with what it printed last, not waited on.
      const bound = Number(env.SHUTDOWN_DRAIN_SECONDS ?? 0) + 20;
      const stuck = setTimeout(() => {
        process.stderr.write(
          `the server on ${base} had not exited ${bound} s after SIGTERM, killed; it printed last:\n`,
        );
        process.stderr.write(`${output.trim().split("\n").slice(-5).join("\n")}\n`);
        child.kill("SIGKILL");
      }, bound * 1000);
      void exited.then(() => clearTimeout(stuck));
      return exited;
    },
    output: () => output,
  };
}

/** A process's resident memory now (VmRSS), in bytes. */
export const residentMemory = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;

/**
 * `work` timed, with the resident memory of the process `pid` (a server) sampled every 20 ms
 * meanwhile: its value just before, and its peak.
 */
export async function residentWhile<T>(pid: number, work: () => Promise<T>) {
  const before = residentMemory(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, residentMemory(pid))), 20);
  const start = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, residentMemory(pid));
    return { result, seconds: (performance.now() - start) / 1000, before, peak, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

/** A Redis server of the test's own on a free port, which the test may stop and start again. */
export async function startRedis() {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, "127.0.0.1", () => {
          socket.end();
          resolve(true);
        });
        socket.on("error", () => resolve(false));
      });
      if (up) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("redis-server did not start");
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}

/**
 * A new, empty, migrated database on the backend DATABASE_URL names: a SQLite file under
 * ./data/, or with a postgresql: URL a new database on that server. `cleanup` removes it.
 */
export async function freshDatabase(
  purpose: string,
  given = process.env.DATABASE_URL,
): Promise<{ url: string; cleanup: () => Promise<void> }> {
  const database = await createDatabase(purpose, given);
  const migrate = spawnSync(
    process.execPath,
    ["node_modules/tsx/dist/cli.mjs", "prisma/scripts/migrate.ts", "deploy"],
    // Its output only when it fails: a runner's files print whole, and this line came between them.
    { encoding: "utf8", env: { ...process.env, DATABASE_URL: database.url } },
  );
  if (migrate.status !== 0) {
    await database.cleanup();
    throw new Error(`migrating the fresh database failed:\n${migrate.stdout}${migrate.stderr}`);
  }
  return database;
}

async function createDatabase(
  purpose: string,
  given: string | undefined,
): Promise<{ url: string; cleanup: () => Promise<void> }> {
  const stamp = `${Date.now()}_${process.pid}`;
  if (given && backendOf(given) === "postgres") {
    const name = `qr_${purpose}_${stamp}`;
    const admin = new pg.Client(pgConfigFromUrl(given));
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(given);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      cleanup: async () => {
        const c = new pg.Client(pgConfigFromUrl(given));
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  mkdirSync("data", { recursive: true });
  const file = path.resolve("data", `${purpose}-${stamp}.db`);
  return {
    url: `file:${file}`,
    cleanup: async () => {
      // `.servers/`: the ids of the servers that used it (server/platform/embedded-backup.ts).
      for (const suffix of ["", "-wal", "-shm", "-journal", ".start-lock", ".servers"])
        rmSync(file + suffix, { force: true, recursive: true });
    },
  };
}

/** A Redis of its own and two servers sharing it (and the database): a small cluster. */
export async function startPair() {
  const redis = await startRedis();
  const [a, b] = await Promise.all([startServer({ REDIS_URL: redis.url }), startServer({ REDIS_URL: redis.url })]);
  return {
    redis,
    a,
    b,
    stop: async () => {
      await Promise.all([a.stop(), b.stop()]);
      await redis.stop();
    },
  };
}
