// The README's test command. First the unit tier (`*.unit.test.ts`, in tests/unit for now: pure
// functions, no build, no server, seconds; `--unit-only` stops there); then builds the app,
// prepares a fresh database on the backend that DATABASE_URL names (embedded SQLite when
// unset; with a postgresql: URL, a new database is created on that server and dropped
// afterwards), starts the production server on a free port, and runs the HTTP integration
// tests and the Playwright browser tests against it.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { backendOf } from "../server/platform/database-url";
import { freePort, freshDatabase, startServer, type RunningServer } from "../scripts/harness";
import { startMailSink } from "./mail-sink";

const baseEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

/** Runs a command with inherited output and returns its output too (for the summary). */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    child.on("exit", (code) => resolve({ code: code ?? 1, output }));
  });
}

type Result = { name: string; code: number; passed: number; failed: number };

/** node:test's closing counts: `ℹ pass N` from Node 24's default reporter (spec), `# pass N` from TAP. */
const counts = ({ code, output }: { code: number; output: string }) => ({
  code,
  passed: Number(/^(?:ℹ|#) pass (\d+)/m.exec(output)?.[1] ?? 0),
  failed: Number(/^(?:ℹ|#) fail (\d+)/m.exec(output)?.[1] ?? 0),
});

/** The unit tier, picked by its name: node:test straight on the TypeScript sources. */
const UNIT_TIER = ".unit.test.ts";

async function unitTests(): Promise<Result> {
  // A test file named for no tier would never run: refused, not skipped.
  const unnamed = readdirSync("tests/unit").filter((f) => f.endsWith(".test.ts") && !f.endsWith(UNIT_TIER));
  if (unnamed.length > 0) {
    console.error(`tests/unit: ${unnamed.join(", ")}: name unit tests *${UNIT_TIER}`);
    return { name: "unit", code: 1, passed: 0, failed: unnamed.length };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "qr-unit-"));
  const files = readdirSync("tests/unit")
    .filter((f) => f.endsWith(UNIT_TIER))
    .sort()
    .map((f) => path.join("tests/unit", f));
  // Modules that import the database client get a database of their own that no test touches.
  // Every core: node:test's default leaves one idle, half of a two-core machine.
  const concurrency = `--test-concurrency=${availableParallelism()}`;
  const unit = await run(process.execPath, ["--import", "tsx", "--test", concurrency, ...files], {
    ...baseEnv,
    DATABASE_URL: `file:${path.join(dir, "unit.db")}`,
    REDIS_URL: "",
  });
  rmSync(dir, { recursive: true, force: true });
  return { name: "unit", ...counts(unit) };
}

function summary(results: Result[]): number {
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  const ok = results.every((r) => r.code === 0) && failed === 0 && passed > 0;
  console.log(`\n${results.map((r) => `${r.name}: ${r.passed} passed, ${r.failed} failed`).join("\n")}`);
  console.log(`tests: ${passed} passed, ${failed} failed`);
  return ok ? 0 : 1;
}

async function main(): Promise<number> {
  const results: Result[] = [await unitTests()];
  if (process.argv.includes("--unit-only")) return summary(results);
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
  const port = await freePort();
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
  };
  // With REDIS_URL (CI's Redis), each run keeps to keys and channels of its own.
  if (env.REDIS_URL) env.REDIS_KEY_PREFIX = `qrtest:${Date.now()}:${process.pid}:`;
  console.log(`\n== backend ${backendOf(db.url)}${env.REDIS_URL ? " + Redis" : ""}, server ${baseUrl}`);

  let server: RunningServer | undefined;
  try {
    server = await startServer(env, port);
    const testsIn = (dir: string) =>
      readdirSync(dir)
        .filter((f) => f.endsWith(".test.ts"))
        .sort()
        .map((f) => path.join(dir, f));
    // --only <text>: just the test files (and browser specs) whose path contains it (while working on them).
    const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : "";
    const files = [...testsIn("tests/api"), ...testsIn("tests/instances")].filter((f) => f.includes(only));
    const api = await run(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=1", ...files], env);
    results.push({ name: "integration", ...counts(api) });
    if (!process.argv.includes("--no-e2e")) {
      // Playwright empties its output folder when it starts: one per backend, so that two runs at once (.ci/run) keep their own.
      const output = `test-results/${backendOf(db.url)}`;
      const e2e = await run(
        process.execPath,
        [
          "node_modules/@playwright/test/cli.js",
          "test",
          "--output",
          output,
          ...(only ? [only, "--pass-with-no-tests"] : []),
        ],
        env,
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
    rmSync(mailDir, { recursive: true, force: true });
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
