// The README's test command. First the unit tier (pure logic, no build, no server, seconds;
// `--unit-only` stops there, `--no-unit` skips it); then builds the app, prepares a fresh database
// on the backend that DATABASE_URL names (embedded SQLite when unset; with a postgresql: URL, a new
// database is created on that server and dropped afterwards), starts the production server on a
// free port, and runs the integration tiers (tests/tiers.ts says which, by backend) and the
// Playwright browser tests against it. On SQLite it runs every tier; on PostgreSQL + Redis, the
// tiers whose answers depend on the backend (`--all`: every tier there too). CI runs both at once:
// on SQLite with `--postgres <url> --redis <url>`, the PostgreSQL + Redis run's files share the
// pool with the SQLite run's and the browser specs (tests/schedule.ts).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { backendOf } from "../server/platform/database-url";
import { freePort, freshDatabase, startServer, type RunningServer } from "../scripts/harness";
import { startMailSink } from "./mail-sink";
import { startDnsServer } from "./dns-server";
import { fileJob, runJobs, runNode, sharedProcessJob, type Job } from "./schedule";
import { ALONE, integrationFiles, unitFiles } from "./tiers";

const baseEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

type Result = { name: string; code: number; passed: number; failed: number };

const option = (name: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const CORES = availableParallelism();
/** Playwright's workers: each a Chromium and its pages, holding a slot of the pool. */
const BROWSER_WORKERS = 2;
/**
 * --jobs N: slots of the pool, a test file or a browser worker each (default: two per core; an
 * integration file mostly waits on a server, the CPU-seconds are in the servers).
 */
const JOBS = Number(option("--jobs") ?? 2 * CORES);
/** --only <text>: just the test files (and browser specs) whose path contains it (while working on them). */
const ONLY = option("--only") ?? "";

/** Files' (or tiers') counts added up: failed when any of them failed. */
const sum = (results: Omit<Result, "name">[], name: string): Result => ({
  name,
  code: results.some((r) => r.code !== 0) ? 1 : 0,
  passed: results.reduce((n, r) => n + r.passed, 0),
  failed: results.reduce((n, r) => n + r.failed, 0),
});

/** The unit tier: node:test straight on the TypeScript sources. */
async function unitTests(): Promise<Result> {
  const dir = mkdtempSync(path.join(tmpdir(), "qr-unit-"));
  // Modules that import the database client get a database of their own that no test touches.
  const env = { ...baseEnv, DATABASE_URL: `file:${path.join(dir, "unit.db")}`, REDIS_URL: "" };
  // One process per core, each taking every CORES-th file: unit files compute, they wait on nothing.
  const files = unitFiles();
  const groups = Array.from({ length: Math.min(CORES, files.length) }, (_, i) =>
    files.filter((_, n) => n % CORES === i),
  );
  const results = await runJobs(
    groups.map((g, i) => sharedProcessJob(g, env, `unit files, part ${i + 1} of ${groups.length}`)),
    CORES,
  );
  rmSync(dir, { recursive: true, force: true });
  return sum(results, "unit");
}

function summary(results: Result[]): number {
  const all = sum(results, "tests");
  console.log(`\n${[...results, all].map((r) => `${r.name}: ${r.passed} passed, ${r.failed} failed`).join("\n")}`);
  return all.code === 0 && all.failed === 0 && all.passed > 0 ? 0 : 1;
}

/** One backend's run: a fresh database, a mail sink and a DNS server of its own, and its servers' environment. */
async function prepareRun(backend: "sqlite" | "postgres", given: NodeJS.ProcessEnv) {
  const db = await freshDatabase("test", given.DATABASE_URL);
  // Every mail of the run goes over SMTP to this server; the tests read what it received.
  const mailDir = mkdtempSync(path.join(tmpdir(), "qr-mail-"));
  const mailSink = await startMailSink(mailDir);
  // Every custom domain's TXT record is looked up on this server; the tests write its records.
  const dnsDir = mkdtempSync(path.join(tmpdir(), "qr-dns-"));
  const dnsServer = await startDnsServer(dnsDir);
  /** The environment of a server of this run on `port`: the same database and mail, its own address. */
  const serverEnv = (port: number): NodeJS.ProcessEnv => {
    const baseUrl = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...given,
      DATABASE_URL: db.url,
      BASE_URL: baseUrl,
      APP_URL: baseUrl,
      NEXTAUTH_URL: baseUrl,
      NEXTAUTH_SECRET: "test-only-session-secret-not-for-production-000",
      VISITOR_HASH_SECRET: "test-only-visitor-secret-not-for-production-00",
      TRUST_PROXY_COUNTRY_HEADER: "cf-ipcountry",
      // Webhooks reach the tests' receivers on loopback, and their retries come within seconds.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
      WEBHOOK_RETRY_SCALE: "0.01",
      SMTP_URL: mailSink.url,
      MAIL_SINK_DIR: mailDir,
      DNS_SERVERS: dnsServer.servers,
      DNS_RECORDS_DIR: dnsDir,
    };
    // With REDIS_URL (CI's Redis), each server keeps to keys and channels of its own.
    if (env.REDIS_URL) env.REDIS_KEY_PREFIX = `qrtest:${Date.now()}:${process.pid}:${port}:`;
    return env;
  };
  const servers: RunningServer[] = [];
  return {
    backend,
    /** Starts a server of this run on a free port; stopped with the run. */
    startServer: async () => {
      const port = await freePort();
      const env = serverEnv(port);
      servers.push(await startServer(env, port));
      return env;
    },
    stop: async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await db.cleanup();
      await mailSink.stop();
      await dnsServer.stop();
      rmSync(mailDir, { recursive: true, force: true });
      rmSync(dnsDir, { recursive: true, force: true });
    },
  };
}

const BROWSER_JOB = "browser (e2e/*.spec.ts)";

/** The Playwright run against the server at `env.BASE_URL`, as one job of the pool. */
function browserJob(env: NodeJS.ProcessEnv, backend: string): Job {
  return {
    name: BROWSER_JOB,
    alone: false,
    slots: BROWSER_WORKERS,
    run: async () => {
      // Playwright empties its output folder when it starts: one per backend, so that two runs at once keep their own.
      const { code, output } = await runNode(
        [
          "node_modules/@playwright/test/cli.js",
          "test",
          "--workers",
          String(BROWSER_WORKERS),
          "--output",
          `test-results/${backend}`,
          ...(ONLY ? [ONLY, "--pass-with-no-tests"] : []),
        ],
        env,
      );
      const passed = Number(/(\d+) passed/.exec(output)?.[1] ?? 0);
      return { code, output, passed, failed: Number(/(\d+) failed/.exec(output)?.[1] ?? 0) };
    },
  };
}

async function main(): Promise<number> {
  const backend = backendOf(process.env.DATABASE_URL ?? "file:");
  const everything = process.argv.includes("--all") || ONLY !== "";
  const results: Result[] = [];
  // The unit tier once: in the run on SQLite, or when every tier (or only it) is asked for.
  const unit = backend === "sqlite" || everything || process.argv.includes("--unit-only");
  if (unit && !process.argv.includes("--no-unit")) results.push(await unitTests());
  if (process.argv.includes("--unit-only")) return summary(results);
  if (backend === "postgres" && !process.env.REDIS_URL) {
    console.error("on PostgreSQL the tests run with Redis too: set REDIS_URL (redis://127.0.0.1:6379)");
    return 1;
  }
  // --postgres <url> --redis <url>: the PostgreSQL + Redis run beside this one, in the same pool.
  const also = option("--postgres");
  if (also && (backend === "postgres" || !option("--redis"))) {
    console.error("--postgres <url> goes with --redis <url>, beside a run on SQLite (DATABASE_URL unset)");
    return 1;
  }
  if (!process.argv.includes("--no-build")) {
    const build = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
      stdio: "inherit",
      env: baseEnv,
    });
    if (build.status !== 0) return 1;
  }
  const runs = [await prepareRun(backend, baseEnv)];
  if (also) runs.push(await prepareRun("postgres", { ...baseEnv, DATABASE_URL: also, REDIS_URL: option("--redis") }));
  try {
    // Every server of every run starts at once: a start mostly waits on loading code.
    const withBrowser = !process.argv.includes("--no-e2e") && (backend === "sqlite" || everything);
    const [envs, e2eEnv] = await Promise.all([
      Promise.all(runs.map((r) => r.startServer())),
      // The browser specs do not depend on the backend: once, in the run on SQLite, on a server of
      // their own (same database), so that the integration files' deliberate failed log-ins and reset
      // requests, all from 127.0.0.1, leave the address's allowance (20 failed log-ins, 10 reset
      // links) that the specs' own log-ins need.
      withBrowser ? runs[0].startServer() : undefined,
    ]);
    for (const env of envs)
      console.log(
        `== backend ${backendOf(env.DATABASE_URL!)}${env.REDIS_URL ? " + Redis" : ""}, server ${env.BASE_URL}`,
      );
    const label = (r: (typeof runs)[number]) => (runs.length > 1 ? r.backend : "");
    const files = runs.map((r, i) =>
      integrationFiles(r.backend, everything && i === 0)
        .filter((f) => f.includes(ONLY))
        .map((f) => fileJob(f, envs[i], f in ALONE, label(r))),
    );
    // The browser run first (the longest), then each run's files by turns (tests/instances first).
    const jobs = [...(e2eEnv ? [browserJob(e2eEnv, backend)] : []), ...interleave(files)];
    const done = await runJobs(jobs, JOBS);
    for (const [i, r] of runs.entries()) {
      const own = new Set(files[i].map((j) => j.name));
      const name = runs.length > 1 ? `integration (${r.backend})` : "integration";
      results.push(
        sum(
          done.filter((d) => own.has(d.name)),
          name,
        ),
      );
    }
    const browser = done.find((d) => d.name === BROWSER_JOB);
    if (browser) results.push({ ...browser, name: "browser" });
  } finally {
    await Promise.all(runs.map((r) => r.stop()));
  }
  return summary(results);
}

/** The lists' items by turns: a, b, a, b, … */
function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) out.push(l[i]);
  return out;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
