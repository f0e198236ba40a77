// The production recipe, run as the README documents it: Debian's nginx with
// deploy/nginx/qr-records.conf (ports rewritten: scripts/nginx.ts) in front of three instances
// on PostgreSQL + a Redis of the test's own, each instance with a spool of its own. Under /q
// traffic over 20 codes (each request its own browser agent, so each stored scan names its
// request) and /v1 reads, through nginx, in turn: kill -9 of an instance and its restart on its
// spool; PostgreSQL away for 20 s (the instances reach it through a relay of the test's own,
// which cuts every connection and refuses new ones, as a stopped server does: the shared server
// is never stopped); Redis stopped and started; SIGTERM and restart; a rolling restart of all
// three. Then: 0 × 5xx for /q, every answered redirect one scan row (a request nginx retried
// after the kill -9 may count twice: reported, at most the loops in flight), no id twice,
// rollups equal to the rows; /v1 503 within 2 s while the database is away. Also: the daily
// quota exact across instances, a revocation refused by the next request, and a page's action
// through nginx on its non-default port. PostgreSQL + Redis + nginx only.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { env as serverEnv } from "../../server/platform/env";
import { visitorHash } from "../../server/scan/visitor";
import { startRedis, startServer, type RunningServer } from "../../scripts/harness";
import { startNginx, type Nginx } from "../../scripts/nginx";
import { makeCodes } from "../../scripts/bench/cluster";
import { CLIENT_ADDRESS, makeTeam, personalKey, revokeKey } from "../helpers";
import { faultRelay } from "../fault-relay";
import { UA } from "../agents";

const IPHONE = UA.iphone;
const agentOf = (n: number) => `${IPHONE} r${n}`;
const QUOTA = 15;
const LOOPS = 6;
const OUTAGE_MS = 20_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * The test's own reads (straight to the shared PostgreSQL, not through the relay). Just after the
 * load, with three instances replaying their spools, PostgreSQL itself can take longer than the
 * stall watch's 400 ms (server/platform/pg-pool.ts) to answer a new connection, and the watch then
 * cuts a read of this process: it is read again. (The watch no longer counts this process's own
 * held event loop against the database: tests/api/database-probe.postgres.test.ts.)
 */
async function reread<T>(query: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await query();
    } catch (error) {
      if (tries === 5) throw error;
      await sleep(500);
    }
  }
}

describe("a cluster behind nginx", () => {
  const servers: RunningServer[] = [];
  const ports: number[] = [];
  const spools: string[] = [];
  let nginx: Nginx;
  let relay: Awaited<ReturnType<typeof faultRelay>>;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let scanned: Awaited<ReturnType<typeof makeCodes>>;
  const env = {
    TRUST_PROXY: "1",
    SHUTDOWN_DRAIN_SECONDS: "1",
    RATE_LIMIT_PERSONAL_DAILY_QUOTA: String(QUOTA),
    DATABASE_URL: "",
    REDIS_URL: "",
  };
  /**
   * Instance `i` on its own spool (a restart replays what the spool holds): first on a port free
   * at its start, then again on that port, which nginx names.
   */
  const start = async (i: number) => {
    servers[i] = await startServer({ ...env, SCAN_SPOOL_DIR: spools[i] }, ports[i]);
    ports[i] = servers[i].port;
  };
  before(async () => {
    // Made before the instances start, so each start loads them into the copy in their Redis
    // (the test process's own writes reach the run's Redis, not the cluster's).
    scanned = await makeCodes(20);
    relay = await faultRelay(serverEnv.databaseUrl);
    redis = await startRedis();
    Object.assign(env, { DATABASE_URL: relay.url, REDIS_URL: redis.url });
    for (let i = 0; i < 3; i++) spools.push(mkdtempSync(path.join(tmpdir(), "qr-spool-")));
    for (const i of [0, 1, 2]) await start(i); // one after another: three at once outlast the harness's minute on a loaded machine
    nginx = await startNginx(ports);
  });
  after(async () => {
    await nginx?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    for (const spool of spools) rmSync(spool, { recursive: true, force: true });
    await redis?.stop();
    relay?.close();
  });

  it("kill -9, PostgreSQL away 20 s, Redis stopped, SIGTERM, a rolling restart, under load: 0 × 5xx for /q, every answered scan one row", async (t) => {
    const started = Date.now();
    const phase = (what: string) => t.diagnostic(`${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
    const { codes, ids } = scanned;
    const team = await makeTeam();

    const statuses: Record<string, Record<number, number>> = { q: {}, v1: {} };
    const note = (kind: string, status: number) => (statuses[kind][status] = (statuses[kind][status] ?? 0) + 1);
    const answered = new Set<number>();
    let failed = 0;
    let slowest503 = 0;
    let next = 0;
    let running = true;
    // A failed step must stop the load too: its loops would otherwise keep the test file alive.
    t.after(() => (running = false));
    const scans = async () => {
      while (running) {
        const n = next++;
        try {
          const res = await fetch(`${nginx.base}/q/${codes[n % codes.length]}`, {
            redirect: "manual",
            headers: { "user-agent": agentOf(n) },
          });
          await res.arrayBuffer();
          note("q", res.status);
          if (res.status === 302) answered.add(n);
        } catch {
          failed++; // nginx itself did not answer
        }
      }
    };
    const reads = async () => {
      while (running) {
        const began = Date.now();
        const res = await fetch(`${nginx.base}/v1/dynqrcodes?limit=5`, { headers: { "x-api-key": team.adminKey } });
        await res.arrayBuffer();
        note("v1", res.status);
        if (res.status === 503) slowest503 = Math.max(slowest503, Date.now() - began);
        await sleep(120); // under the business key's 10 a second
      }
    };
    const load = [...Array.from({ length: LOOPS }, scans), reads()];
    await sleep(1500);

    phase("kill -9 of instance 1, restarted on its spool");
    servers[0].child.kill("SIGKILL");
    await servers[0].exited;
    await sleep(1000);
    await start(0);
    await sleep(1500);

    phase(`PostgreSQL away for ${OUTAGE_MS / 1000} s`);
    const v1Before503 = statuses.v1[503] ?? 0;
    await relay.set("refuse");
    await sleep(OUTAGE_MS);
    await relay.set("relay");
    const outage503 = (statuses.v1[503] ?? 0) - v1Before503;
    await sleep(3000);

    phase("Redis stopped for 5 s");
    await redis.stop();
    await sleep(5000);
    await redis.start();
    await sleep(3000);

    phase("SIGTERM to instance 2, then started again");
    assert.equal(await servers[1].stop(), 0, "SIGTERM: exit 0");
    await start(1);
    await sleep(1500);

    phase("rolling restart");
    for (const i of [0, 1, 2]) {
      assert.equal(await servers[i].stop(), 0, `instance ${i + 1} exit 0`);
      await start(i);
      await sleep(1000);
    }
    running = false;
    await Promise.all(load);
    phase(
      `load stopped: /q ${JSON.stringify(statuses.q)}, nginx gave no answer ${failed}; /v1 GET ${JSON.stringify(statuses.v1)} (${outage503} × 503 in the outage, slowest ${slowest503} ms)`,
    );

    // Every answered request's scan is a row (the restarted instances replay their spools).
    const expected = new Map<string, number>([...answered].map((n) => [visitorHash(CLIENT_ADDRESS, agentOf(n)), n]));
    let rows: { id: string; visitorHash: string }[] = [];
    const deadline = Date.now() + 30_000;
    for (;;) {
      rows = await reread(() =>
        db.scanEvent.findMany({ where: { dynamicCodeId: { in: ids } }, select: { id: true, visitorHash: true } }),
      );
      const stored = new Set(rows.map((r) => r.visitorHash));
      if ([...expected.keys()].every((h) => stored.has(h)) || Date.now() > deadline) break;
      await sleep(200);
    }
    phase(`every answered scan written: ${rows.length} rows`);
    const perRequest = new Map<string, number>();
    for (const row of rows) perRequest.set(row.visitorHash, (perRequest.get(row.visitorHash) ?? 0) + 1);
    const missing = [...expected.keys()].filter((h) => !perRequest.has(h)).length;
    const strangers = [...perRequest.keys()].filter((h) => !expected.has(h)).length;
    const twice = [...perRequest.values()].filter((c) => c > 1).length;
    const daily = await reread(() =>
      db.scanDaily.aggregate({ where: { dynamicCodeId: { in: ids }, dimension: "total" }, _sum: { scans: true } }),
    );
    const quarters = await reread(() =>
      db.scanQuarter.aggregate({ where: { dynamicCodeId: { in: ids }, dimension: "total" }, _sum: { scans: true } }),
    );
    t.diagnostic(
      `answered ${answered.size}, rows ${rows.length}: missing ${missing}, not ours ${strangers}, requests stored twice ${twice}; daily rollups ${daily._sum.scans}, quarter rollups ${quarters._sum.scans}`,
    );
    t.diagnostic(
      `nginx logged ${
        nginx
          .errors()
          .split("\n")
          .filter((l) => /upstream/.test(l)).length
      } upstream failures (each retried on another instance)`,
    );

    const fivexx = (counts: Record<number, number>) => Object.keys(counts).filter((s) => Number(s) >= 500);
    assert.deepEqual(Object.keys(statuses.q), ["302"], nginx.errors().slice(-2000));
    assert.equal(failed, 0, "nginx answered every request");
    assert.ok(answered.size > 1000, `traffic flowed: ${answered.size}`);
    assert.deepEqual(
      fivexx(statuses.v1).filter((s) => s !== "503"),
      [],
      "no /v1 answer from nginx itself",
    );
    assert.ok(outage503 > 0, "/v1 met the outage");
    assert.ok(slowest503 < 2000, `a 503 took ${slowest503} ms`);
    assert.equal(missing, 0, "every answered redirect recorded");
    assert.equal(strangers, 0, "no scan that was not asked for");
    // A request in flight at the kill -9 may be spooled there and answered by the instance nginx retries it on.
    assert.ok(twice <= LOOPS, `${twice} requests stored twice`);
    assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, "no id twice");
    assert.equal(daily._sum.scans, rows.length, "daily rollups equal the rows");
    assert.equal(quarters._sum.scans, rows.length, "quarter rollups equal the rows");
  });

  it("the daily quota is exact across the instances, and a revocation holds at the next request", async () => {
    const { key } = await personalKey();
    const got: number[] = [];
    for (let i = 0; i < QUOTA + 5; i++) {
      const res = await fetch(`${nginx.base}/v1/qrcodes?limit=1`, { headers: { "x-api-key": key } });
      await res.arrayBuffer();
      got.push(res.status);
      await sleep(150); // under the bucket: only the quota decides
    }
    assert.deepEqual(
      got.map((s) => (s === 200 ? "ok" : String(s))),
      [...Array(QUOTA).fill("ok"), ...Array(5).fill("429")],
    );

    const other = await personalKey();
    const before = [];
    for (let i = 0; i < 3; i++)
      before.push((await fetch(`${nginx.base}/v1/qrcodes?limit=1`, { headers: { "x-api-key": other.key } })).status);
    assert.deepEqual(before, [200, 200, 200]);
    await revokeKey(other.keyId, other.user.id);
    const after = [];
    for (let i = 0; i < 3; i++)
      after.push((await fetch(`${nginx.base}/v1/qrcodes?limit=1`, { headers: { "x-api-key": other.key } })).status);
    assert.deepEqual(after, [401, 401, 401]);
  });

  it("a page's action through nginx on a port other than 80 is not refused as cross-site", async () => {
    // The Host the instance sees keeps the port, so the action's Origin matches it.
    const action = await fetch(`${nginx.base}/api/trpc/account.forgotPassword`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: nginx.base },
      body: JSON.stringify({ email: "nobody@example.com" }),
    });
    const text = await action.text();
    assert.ok(!/Cross-site/.test(text), text);
    assert.equal(action.status, 200, text);
  });
});
