// The server's one background thread (server/http/background-thread.ts: the scan writer and the
// webhook dispatcher) dies again and again under scans (BACKGROUND_THREAD_TEST_EXIT_AT: each
// thread at its third batch, before writing it): the recorder keeps the batch in flight and
// sends it to the next thread, the dispatcher goes on in that thread, and every answered
// redirect is one scan and one scan.created delivery. On a database of this test's own, so that
// no other server's dispatcher delivers in its place.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { freshDatabase, startServer } from "../../scripts/harness";
import { logIn } from "../helpers";
import { receiver } from "../webhook-receiver";
import { UA } from "../agents";

const IPHONE = UA.iphone;
const WAVES = 12;
const PER_WAVE = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the background thread", () => {
  it("dies at every third batch: each answered redirect is still one scan and one scan.created delivery", async (t) => {
    const database = await freshDatabase("background_thread");
    const hooks = await receiver();
    const env = { DATABASE_URL: database.url, REDIS_URL: "", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1" };
    const seed = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/seed.ts"], {
      env: { ...process.env, ...env, NODE_ENV: "development" },
      encoding: "utf8",
    });
    assert.equal(seed.status, 0, seed.stderr);
    const server = await startServer({ ...env, BACKGROUND_THREAD_TEST_EXIT_AT: "3" });
    try {
      const page = await logIn("pro@example.com", "demo-password", server.base);
      const { key } = (await page("keys.generatePersonal")) as { key: string };
      const api = async (path: string, body: unknown) => {
        await sleep(210); // the key's bucket
        const r = await fetch(`${server.base}/v1${path}`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        assert.equal(r.status, 201, path);
        return r.json() as Promise<Record<string, unknown>>;
      };
      await api("/webhooks", { url: `${hooks.base}/scans`, events: ["scan.created"] });
      const code = (
        (await api("/dynqrcodes", { destination_url: "https://example.com/thread", name: "Thread" })).created as {
          code: string;
        }[]
      )[0].code;

      // Waves 300 ms apart: a batch each (the buffer is written every 200 ms), so threads die under
      // them. On a busy machine a new thread takes seconds to start and the waves meanwhile make
      // fewer, larger batches: more waves then, until two threads have died.
      const deaths = () => server.output().split("background.thread_failed").length - 1;
      let answered = 0;
      let sent = 0;
      for (let wave = 0; wave < WAVES || (deaths() < 2 && wave < WAVES * 4); wave++) {
        for (let i = 0; i < PER_WAVE; i++, sent++) {
          const r = await fetch(`${server.base}/q/${code}`, { redirect: "manual", headers: { "user-agent": IPHONE } });
          if (r.status === 302) answered++;
        }
        await sleep(300);
      }
      assert.equal(answered, sent);

      const total = async () =>
        (
          (await (
            await fetch(`${server.base}/v1/dynqrcodes/${code}/analytics`, { headers: { "x-api-key": key } })
          ).json()) as { total_scans: number }
        ).total_scans;
      for (const end = Date.now() + 30_000; (await total()) < answered && Date.now() < end;) await sleep(250);
      assert.equal(await total(), answered, "every answered redirect written, once");
      // Deliveries claimed by a thread that died wait for their claim to expire (25 s).
      const ids = () => hooks.received.filter((r) => r.path === "/scans").map((r) => r.headers["webhook-id"]);
      for (const end = Date.now() + 45_000; new Set(ids()).size < answered && Date.now() < end;) await sleep(250);
      assert.equal(new Set(ids()).size, answered, "one scan.created per scan, delivered");
      t.diagnostic(
        `threads died ${deaths()}, scans ${answered}, deliveries ${ids().length} (${new Set(ids()).size} events)`,
      );
      assert.ok(deaths() >= 2, `the thread died at least twice (${deaths()})`);
      assert.equal(await server.stop(), 0);
    } finally {
      await server.stop();
      await hooks.close();
      await database.cleanup();
    }
  });
});
