// Probes that always answer (issue 38): an instance whose PostgreSQL stalls (accepts
// connections, never answers: a TCP listener that holds every byte) or is gone (connections
// refused and cut) answers /readyz within 1 s and /v1 with 503 within 2 s, under concurrent
// calls, and serves again once the database is back. The instance reaches the run's database
// through a TCP relay of the test's own, which plays the faults: the shared server is never
// stopped. With the copy of every code in Redis, short links the instance never resolved are
// answered from it meanwhile, a burst of them too: more than the pool's 20 connections, so that
// some wait for a connection that is never made and fail as the pool's "timeout exceeded when
// trying to connect", the others as the driver's "Connection terminated due to connection
// timeout" (both count as the database unreachable, server/platform/db.ts). PostgreSQL only (SQLite
// has no connection to lose).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { env } from "../../server/platform/env";
import { startRedis, startServer } from "../../scripts/harness";
import { faultRelay } from "../fault-relay";
import { personalKey } from "../helpers";
import { Redis } from "ioredis";
import { createDynamicCodes } from "../../server/library/dynamicCodes";

const timed = async (url: string, headers: Record<string, string> = {}) => {
  const started = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  return { status: res.status, ms: Math.round(performance.now() - started) };
};

describe("probes while the database stalls or is gone", () => {
  it("/readyz within 1 s, /v1 503 within 2 s, then serves again", async (t) => {
    const proxy = await faultRelay(env.databaseUrl);
    const server = await startServer({ DATABASE_URL: proxy.url, REDIS_URL: "", SERVE_PAGES: "0" });
    try {
      const { key } = await personalKey();
      const list = () => timed(`${server.base}/v1/dynqrcodes`, { "x-api-key": key });
      assert.equal((await list()).status, 200);
      for (const fault of ["stall", "refuse"] as const) {
        await proxy.set(fault);
        // Ten calls at once and the probe, twice: the first meets the pool's held connections, the second new ones.
        for (let round = 0; round < 2; round++) {
          const [ready, ...calls] = await Promise.all([
            timed(`${server.base}/readyz`),
            ...Array.from({ length: 10 }, list),
          ]);
          t.diagnostic(
            `${fault} round ${round}: /readyz ${ready.status} in ${ready.ms} ms; /v1 ${[...new Set(calls.map((c) => c.status))]} in ${calls.map((c) => c.ms).join(", ")} ms`,
          );
          assert.ok(ready.ms < 1000, `/readyz took ${ready.ms} ms`);
          assert.equal(ready.status, 503);
          for (const call of calls) {
            assert.equal(call.status, 503);
            assert.ok(call.ms < 2000, `/v1 took ${call.ms} ms`);
          }
        }
        await proxy.set("relay");
        let back = 0;
        for (let i = 0; i < 50 && back !== 200; i++) {
          back = (await list()).status;
          if (back !== 200) await new Promise((r) => setTimeout(r, 200));
        }
        assert.equal(back, 200, `serves again after the ${fault}`);
        assert.equal((await timed(`${server.base}/readyz`)).status, 200);
      }
    } finally {
      await server.stop();
      proxy.close();
    }
  });

  it("with the copy in Redis: /q of codes never resolved here answers from it at once, /readyz degraded within 1 s, /v1 503 within 2 s", async (t) => {
    const { user, key } = await personalKey();
    // Made before the instance starts, so that it loads them into its copy and has never resolved them.
    const made = await createDynamicCodes(
      { userId: user.id, library: { kind: "personal", userId: user.id } },
      Array.from({ length: 31 }, (_, i) => ({ destination_url: `https://example.com/copy-${i}`, name: `Copy ${i}` })),
    );
    // The 31st is scanned before the fault: an instance that has served before (its code paths warm), not these codes.
    const codes = made.slice(0, 30).map((record) => record.code);
    const proxy = await faultRelay(env.databaseUrl);
    const redis = await startRedis();
    const server = await startServer({
      DATABASE_URL: proxy.url,
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: "qrprobes:",
      SERVE_PAGES: "0",
    });
    try {
      // The instance marks its copy complete once loaded (server/scan/live-copy).
      const reader = new Redis(redis.url);
      for (let i = 0; i < 100 && (await reader.get("qrprobes:resolutions:complete")) !== "1"; i++)
        await new Promise((r) => setTimeout(r, 100));
      reader.disconnect();
      assert.equal((await fetch(`${server.base}/q/${made[30].code}`, { redirect: "manual" })).status, 302);
      assert.equal((await timed(`${server.base}/v1/dynqrcodes`, { "x-api-key": key })).status, 200);
      const scan = async (code: string) => {
        const started = performance.now();
        const res = await fetch(`${server.base}/q/${code}`, {
          redirect: "manual",
          headers: { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)" },
        });
        await res.arrayBuffer();
        return {
          status: res.status,
          location: res.headers.get("location"),
          ms: Math.round(performance.now() - started),
        };
      };
      for (const fault of ["stall", "refuse"] as const) {
        await proxy.set(fault);
        // All 30 at once, then again: the first meet the pool (20 connections being made, 10 waiting), the second the outage already seen.
        for (let round = 0; round < 2; round++) {
          const [ready, call, ...scans] = await Promise.all([
            timed(`${server.base}/readyz`),
            timed(`${server.base}/v1/dynqrcodes`, { "x-api-key": key }),
            ...codes.map(scan),
          ]);
          t.diagnostic(
            `${fault} round ${round}: /readyz ${ready.status} in ${ready.ms} ms, /v1 ${call.status} in ${call.ms} ms; /q ${[...new Set(scans.map((s) => s.status))]} in at most ${Math.max(...scans.map((s) => s.ms))} ms`,
          );
          assert.ok(ready.ms < 1000, `/readyz took ${ready.ms} ms`);
          assert.equal(ready.status, 200); // degraded: the copy answers
          assert.equal(call.status, 503);
          assert.ok(call.ms < 2000, `/v1 took ${call.ms} ms`);
          scans.forEach((answer, i) => {
            assert.equal(answer.status, 302, `/q/${codes[i]} answered ${answer.status}`);
            assert.equal(answer.location, `https://example.com/copy-${i}`);
            assert.ok(answer.ms < 2000, `/q took ${answer.ms} ms`);
          });
        }
        await proxy.set("relay");
        let back = 0;
        for (let i = 0; i < 50 && back !== 200; i++) {
          back = (await timed(`${server.base}/v1/dynqrcodes`, { "x-api-key": key })).status;
          if (back !== 200) await new Promise((r) => setTimeout(r, 200));
        }
        assert.equal(back, 200, `serves again after the ${fault}`);
      }
    } finally {
      await server.stop();
      await redis.stop();
      proxy.close();
    }
  });
});
