// Probes that always answer (issue 38): an instance whose PostgreSQL stalls (accepts
// connections, never answers: a TCP listener that holds every byte) or is gone (connections
// refused and cut) answers /readyz within 1 s and /v1 with 503 within 2 s, under concurrent
// calls, and serves again once the database is back. The instance reaches the run's database
// through a TCP relay of the test's own, which plays the faults: the shared server is never
// stopped. PostgreSQL only (SQLite has no connection to lose).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { env } from "../../server/env";
import { dialect } from "../../server/db";
import { startServer } from "../../scripts/harness";
import { faultRelay } from "../fault-relay";
import { personalKey } from "../helpers";

const timed = async (url: string, headers: Record<string, string> = {}) => {
  const started = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  return { status: res.status, ms: Math.round(performance.now() - started) };
};

describe("probes while the database stalls or is gone", { skip: dialect === "postgres" ? false : "PostgreSQL only" }, () => {
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
          const [ready, ...calls] = await Promise.all([timed(`${server.base}/readyz`), ...Array.from({ length: 10 }, list)]);
          t.diagnostic(`${fault} round ${round}: /readyz ${ready.status} in ${ready.ms} ms; /v1 ${[...new Set(calls.map((c) => c.status))]} in ${calls.map((c) => c.ms).join(", ")} ms`);
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
});
