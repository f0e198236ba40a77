// A database that does not take the scans (issue 38): the test holds the scan tables' write lock
// (SQLite: the file's, PostgreSQL: ScanVisitorDay's, where each batch writes first), so every
// batch waits or fails while the redirects go on. Memory stays bounded: beyond
// SCAN_MEMORY_SCANS the backlog waits in the spool only (qr_scan_buffer_scans{where}), and
// /readyz reports it (`scans_behind`). Once the lock goes, every scan is written exactly once.
// Then SIGTERM with a backlog the database refuses: the instance exits within
// SHUTDOWN_DRAIN_SECONDS + 10 s, and the next start on its spool writes every scan. On SQLite
// the writer's thread is then waiting for the held lock: it ends cleanly (exit code 0), never
// with a V8 fatal error.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { Client } from "pg";
import { db, dialect } from "../../server/platform/db";
import { pgConfigFromUrl, sqliteFileOf } from "../../server/platform/database-url";
import { env } from "../../server/platform/env";
import { makeUser } from "../helpers";
import { createDynamicCodes } from "../../server/library/dynamicCodes";
import { startServer, type RunningServer } from "../../scripts/harness";

const UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const BOUND = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Holds the scan writer's first lock until released. */
async function holdScanLock(): Promise<() => Promise<void>> {
  if (dialect === "sqlite") {
    const connection = new Database(sqliteFileOf(env.databaseUrl));
    connection.prepare("BEGIN EXCLUSIVE").run();
    return async () => {
      connection.prepare("ROLLBACK").run();
      connection.close();
    };
  }
  const client = new Client(pgConfigFromUrl(env.databaseUrl));
  await client.connect();
  await client.query(`BEGIN; LOCK TABLE "ScanVisitorDay" IN EXCLUSIVE MODE`);
  return async () => {
    await client.query("ROLLBACK");
    await client.end();
  };
}

/** `count` redirects from `workers` loops, each its own visitor; all must be 302. */
async function scan(server: RunningServer, code: string, count: number, workers = 16) {
  let next = 0;
  const statuses = new Map<number, number>();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < count) {
        const n = next++;
        const res = await fetch(`${server.base}/q/${code}`, {
          redirect: "manual",
          headers: { "user-agent": `${UA} b${n}`, "x-forwarded-for": `198.51.100.${n % 200}` },
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  assert.deepEqual([...statuses], [[302, count]]);
}

const gauge = (text: string, where: string) =>
  Number(new RegExp(`^qr_scan_buffer_scans\\{where="${where}"\\} (\\d+)`, "m").exec(text)?.[1]);
type Ready = { status: string; scans_behind: { scans: number; seconds: number | null } };

describe("a backlog the database does not take", () => {
  it("waits in the spool beyond the memory bound, is reported, and is written exactly once after", async (t) => {
    // Made in this file's own database (tests/tiers.ts, OWN_DATABASE), which its server uses.
    const user = await makeUser("pro");
    const [{ code }] = await createDynamicCodes({ userId: user.id, library: { kind: "personal", userId: user.id } }, [
      { destination_url: "https://example.com/backlog", name: "Backlog" },
    ]);
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code } });
    const spool = mkdtempSync(path.join(tmpdir(), "qr-backlog-"));
    const settings = { SCAN_SPOOL_DIR: spool, SCAN_MEMORY_SCANS: String(BOUND), SHUTDOWN_DRAIN_SECONDS: "1" };
    let release = async () => undefined as void;
    try {
      const server = await startServer(settings);
      await scan(server, code, 20); // the code cached, its resolution warm
      release = await holdScanLock();
      await scan(server, code, 2500);
      const metrics = await (await fetch(`${server.base}/metrics`)).text();
      const ready = (await (await fetch(`${server.base}/readyz`)).json()) as Ready;
      t.diagnostic(
        `held: memory ${gauge(metrics, "memory")}, spool ${gauge(metrics, "spool")}, /readyz ${JSON.stringify(ready.scans_behind)}`,
      );
      assert.ok(gauge(metrics, "memory") <= BOUND, `in memory: ${gauge(metrics, "memory")}`);
      assert.ok(gauge(metrics, "spool") >= 2500 - BOUND - 500, `in the spool only: ${gauge(metrics, "spool")}`);
      assert.equal(ready.status, "ready");
      assert.ok(ready.scans_behind.scans >= 2500 - 500, `scans_behind ${ready.scans_behind.scans}`);
      assert.equal(ready.scans_behind.seconds, null, "no time to write while the writes wait");

      await release();
      release = async () => undefined;
      const started = Date.now();
      for (let i = 0; i < 300 && (await db.scanEvent.count({ where: { dynamicCodeId: id } })) < 2520; i++)
        await sleep(100);
      t.diagnostic(`2,520 scans written ${Date.now() - started} ms after the lock went`);
      assert.equal(await db.scanEvent.count({ where: { dynamicCodeId: id } }), 2520);
      const after = (await (await fetch(`${server.base}/readyz`)).json()) as Ready;
      assert.equal(after.scans_behind.scans, 0);

      // SIGTERM with a backlog the database refuses: out within SHUTDOWN_DRAIN_SECONDS + 10 s.
      release = await holdScanLock();
      await scan(server, code, 1500);
      const stopped = Date.now();
      server.child.kill("SIGTERM");
      assert.equal(await server.exited, 0);
      const took = Date.now() - stopped;
      t.diagnostic(`exited ${took} ms after SIGTERM with 1,500 scans unwritten (SHUTDOWN_DRAIN_SECONDS=1)`);
      assert.ok(took < 11_000, `exited after ${took} ms`);
      assert.match(server.output(), /shutdown\.scans_not_written/);
      await release();
      release = async () => undefined;
      // The next start on the same spool writes what was left, exactly once.
      const next = await startServer(settings);
      for (let i = 0; i < 300 && (await db.scanEvent.count({ where: { dynamicCodeId: id } })) < 4020; i++)
        await sleep(100);
      assert.equal(await db.scanEvent.count({ where: { dynamicCodeId: id } }), 4020);
      assert.equal(await next.stop(), 0);
    } finally {
      await release();
      rmSync(spool, { recursive: true, force: true });
    }
  });
});
