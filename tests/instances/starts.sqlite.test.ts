// Starts (issue 38). `npm start` (scripts/serve.ts: migrate, seed a new embedded database, then
// serve in the same process) on one SQLite file: two at the same moment on a new file, a third
// while they serve; a migration that is due while servers use the file is refused in one line.
// (A normal start on each backend: starts.backends.test.ts.)
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { freePort } from "../../scripts/harness";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MIGRATIONS = readdirSync("prisma/sqlite/migrations", { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
// What `npm start` runs: package.json's script, word for word.
const START = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start.split(
  " ",
);

type Start = { output: () => string; exited: Promise<number | null>; base: string; stop: () => Promise<number | null> };

/** `npm start`'s command on `file`, with a spool of its own and no Next (the pages are not what is tested). */
async function npmStart(file: string, dir: string): Promise<Start> {
  const port = await freePort();
  // NODE_ENV unset, as in a shell: the seed refuses production.
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: `file:${file}`,
    SCAN_SPOOL_DIR: mkdtempSync(path.join(dir, "spool-")),
    PORT: String(port),
    SERVE_PAGES: "0",
    REDIS_URL: "",
    SHUTDOWN_DRAIN_SECONDS: "0",
    LOG_LEVEL: "warn",
  };
  delete env.NODE_ENV;
  const child = spawn(START[0] === "node" ? process.execPath : START[0], START.slice(1), {
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    output: () => output,
    exited,
    base: `http://127.0.0.1:${port}`,
    stop: () => (child.exitCode === null && child.kill("SIGTERM"), exited),
  };
}

/** Resolves once the start answers /readyz 200; fails if it exits first. */
async function ready(start: Start): Promise<void> {
  let exit: number | null | undefined;
  void start.exited.then((code) => (exit = code));
  for (const end = Date.now() + 120_000; Date.now() < end; await sleep(200)) {
    if (exit !== undefined) throw new Error(`exited with ${exit}: ${start.output()}`);
    const ok = await fetch(`${start.base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
  }
  throw new Error(`not ready within 120 s: ${start.output()}`);
}

describe("npm start on one SQLite file", () => {
  it("two at once on a new file both serve, a third joins them, a migration due while they serve is refused in one line", async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), "qr-starts-"));
    const file = path.join(dir, "qr.db");
    const starts: Start[] = [];
    try {
      starts.push(await npmStart(file, dir), await npmStart(file, dir));
      await Promise.all(starts.map(ready));
      const [a, b] = starts.map((s) => s.output());
      t.diagnostic(
        `first: ${a.match(/Applied migrations|Database is up to date/)?.[0]}; second: ${b.match(/Applied migrations|Database is up to date/)?.[0]}`,
      );
      for (const output of [a, b]) assert.doesNotMatch(output, /WASM|panic|SocketTimeout|Refusing|Error/);
      // One applied them, the other found them applied; the demo accounts made once.
      assert.equal([a, b].filter((o) => o.includes("Applied migrations")).length, 1);
      assert.equal([a, b].filter((o) => o.includes("Database is up to date.")).length, 1);
      const database = new Database(file, { readonly: true });
      const applied = database
        .prepare(`SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL`)
        .all() as { name: string }[];
      assert.deepEqual(applied.map((m) => m.name).sort(), MIGRATIONS);
      assert.equal(
        (database.prepare(`SELECT count(*) AS n FROM "User" WHERE email = 'pro@example.com'`).get() as { n: number }).n,
        1,
      );
      database.close();

      // A third while both serve: nothing to migrate, it serves beside them.
      const third = await npmStart(file, dir);
      starts.push(third);
      await ready(third);
      assert.match(third.output(), /Database is up to date\./);
      assert.doesNotMatch(third.output(), /WASM|panic|Refusing/);

      // A migration due (its row removed, as when a new version starts beside the old) while
      // servers use the file: refused before the engine, in one line, and the servers go on.
      const writer = new Database(file);
      writer.pragma("busy_timeout = 5000");
      writer.prepare(`DELETE FROM _prisma_migrations WHERE migration_name = ?`).run(MIGRATIONS.at(-1));
      writer.close();
      const fourth = await npmStart(file, dir);
      assert.equal(await fourth.exited, 1);
      const lines = fourth
        .output()
        .trim()
        .split("\n")
        .filter((line) => line && !line.startsWith(">"));
      t.diagnostic(lines.join(" | "));
      assert.deepEqual(lines, [
        `Refusing to migrate ${file} while server processes use it (${lines[0]?.match(/\(([\d, ]+)\)/)?.[1]}): 1 migration to apply (a SQLite migration needs the file to itself); stop them, then start again`,
      ]);
      assert.equal((await fetch(`${third.base}/readyz`)).status, 200);
      assert.deepEqual(await Promise.all(starts.map((s) => s.stop())), [0, 0, 0]);
    } finally {
      await Promise.all(starts.map((s) => s.stop()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
