// The README's test command. First the unit tier (pure logic, no build, no server, seconds;
// `--unit-only` stops there); then builds the app, prepares a fresh database on the backend that
// DATABASE_URL names (embedded SQLite when unset; with a postgresql: URL, a new database is
// created on that server and dropped afterwards), starts the production server on a free port,
// and runs the integration tiers (tests/tiers.ts says which, by backend) and the Playwright
// browser tests against it. On SQLite it runs every tier; on PostgreSQL + Redis, the tiers
// whose answers depend on the backend (`--all`: every tier there too). CI runs both.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { backendOf } from "../server/platform/database-url";
import { freePort, freshDatabase, startServer, type RunningServer } from "../scripts/harness";
import { startMailSink } from "./mail-sink";
import { startDnsServer } from "./dns-server";
import { onStop, runFiles, runNode } from "./schedule";
import { ALONE, COMPANY, integrationFiles, OWN_DATABASE, SLOW, unitFiles } from "./tiers";

// Every Node process of the run (test files, servers, Playwright) loads most of server/: V8's
// compiled code is kept on disk by the first and read back by the others (about a tenth of a
// test file's start).
const baseEnv = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(tmpdir(), "qr-records-compile-cache"),
};

type Result = { name: string; code: number; passed: number; failed: number };

const option = (name: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
/**
 * --jobs N: test files side by side. By default three for every two cores: integration files
 * spend much of their time waiting (timers, receivers, their servers' starts), and on two
 * cores two of them kept the machine 60 % busy. Measured on the SQLite integration tier: 2 jobs
 * 7.6 min, 4 jobs 6.0 min, 6 jobs 6.0 min with two files failing on a starved machine.
 */
const JOBS = Number(option("--jobs") ?? Math.ceil(availableParallelism() * 1.5));
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
  const results = await runFiles(
    unitFiles(),
    { ...baseEnv, DATABASE_URL: `file:${path.join(dir, "unit.db")}`, REDIS_URL: "" },
    { jobs: JOBS, alone: () => false },
  );
  rmSync(dir, { recursive: true, force: true });
  return sum(results, "unit");
}

function summary(results: Result[]): number {
  const all = sum(results, "tests");
  console.log(`\n${[...results, all].map((r) => `${r.name}: ${r.passed} passed, ${r.failed} failed`).join("\n")}`);
  return all.code === 0 && all.failed === 0 && all.passed > 0 ? 0 : 1;
}

async function main(): Promise<number> {
  const backend = backendOf(process.env.DATABASE_URL ?? "file:");
  const everything = process.argv.includes("--all") || ONLY !== "";
  const results: Result[] = [];
  // The unit tier once: in the run on SQLite, or when every tier (or only it) is asked for.
  if (backend === "sqlite" || everything || process.argv.includes("--unit-only")) results.push(await unitTests());
  if (process.argv.includes("--unit-only")) return summary(results);
  if (backend === "postgres" && !process.env.REDIS_URL) {
    console.error("on PostgreSQL the tests run with Redis too: set REDIS_URL (redis://127.0.0.1:6379)");
    return 1;
  }
  if (!process.argv.includes("--no-build")) {
    const build = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
      stdio: "inherit",
      env: baseEnv,
    });
    if (build.status !== 0) return 1;
  }
  const db = await freshDatabase("test");
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
      ...baseEnv,
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
  const port = await freePort();
  const env = serverEnv(port);
  console.log(`\n== backend ${backend}${env.REDIS_URL ? " + Redis" : ""}, server ${env.BASE_URL}`);

  let server: RunningServer | undefined;
  onStop(() => server?.child.kill("SIGKILL"));
  try {
    server = await startServer(env, port);
    const files = integrationFiles(backend, everything).filter((f) => f.includes(ONLY));
    const integration = await runFiles(files, env, {
      jobs: JOBS,
      alone: (f) => f in ALONE,
      company: (f) => COMPANY[f] ?? f,
      ownDatabase: (f) => f in OWN_DATABASE,
      // The files on the run's server start nothing of their own: four to a process.
      shared: (f) => f.startsWith("tests/api/") && !(f in ALONE) && !(f in OWN_DATABASE),
      seconds: (f) => SLOW[f] ?? 0,
    });
    results.push(sum(integration, "integration"));
    // The browser specs do not depend on the backend: once, in the run on SQLite.
    if (!process.argv.includes("--no-e2e") && (backend === "sqlite" || everything)) {
      // On a server of their own (same database): the browser speaks from 127.0.0.1, as the
      // command-line runs and bursts of the integration files did, and its allowances per
      // address (20 failed log-ins, 10 reset links) start full.
      await server.stop();
      server = undefined;
      const e2ePort = await freePort();
      const e2eEnv = serverEnv(e2ePort);
      server = await startServer(e2eEnv, e2ePort);
      // Playwright empties its output folder when it starts: one per backend, so that two runs at once (.ci/run) keep their own.
      const e2e = await runNode(
        [
          "node_modules/@playwright/test/cli.js",
          "test",
          "--output",
          `test-results/${backend}`,
          ...(ONLY ? [ONLY, "--pass-with-no-tests"] : []),
        ],
        e2eEnv,
        true,
      );
      results.push({
        name: "browser",
        code: e2e.code,
        passed: Number(/(\d+) passed/.exec(e2e.output)?.[1] ?? 0),
        failed: Number(/(\d+) failed/.exec(e2e.output)?.[1] ?? 0),
      });
    }
  } finally {
    await server?.stop();
    await db.cleanup();
    await mailSink.stop();
    await dnsServer.stop();
    rmSync(mailDir, { recursive: true, force: true });
    rmSync(dnsDir, { recursive: true, force: true });
  }
  return summary(results);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
