// SCAN_EVENT_RETENTION_DAYS: on a database of its own, scans recorded through /q, then a server
// whose clock runs 70 days ahead (CLOCK_OFFSET_SECONDS) with a retention of 30 days: whatever
// today's date, every scan of this month is then older than the setting. Its sweep removes the
// raw events (the export has none left) while the rollups keep counting them; on PostgreSQL it
// drops this month's partition whole and has created the months ahead of its
// clock. A server without the setting keeps everything.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import pg from "pg";
import { freshDatabase, startServer } from "../../scripts/harness";
import { pgConfigFromUrl } from "../../server/platform/database-url";
import { logIn } from "../helpers";
import { UA } from "../agents";

const IPHONE = UA.iphone;
const DAY = 86_400;

describe("raw scan event retention", () => {
  it("deletes events older than the setting, the rollups keep counting them", async () => {
    const database = await freshDatabase("retention");
    try {
      const seed = spawnSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/seed.ts"], {
        env: { ...process.env, DATABASE_URL: database.url, NODE_ENV: "development" },
        encoding: "utf8",
      });
      assert.equal(seed.status, 0, seed.stderr);
      const env = { DATABASE_URL: database.url, REDIS_URL: "" };
      let server = await startServer(env);
      const page = await logIn("pro@example.com", "demo-password", server.base);
      const { key } = (await page("keys.generatePersonal")) as { key: string };
      const api = (path: string) => fetch(`${server.base}${path}`, { headers: { "x-api-key": key } });
      const created = await fetch(`${server.base}/v1/dynqrcodes`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ destination_url: "https://example.com/kept", name: "Kept" }),
      });
      const code = ((await created.json()) as { created: { code: string }[] }).created[0].code;
      for (let i = 0; i < 5; i++)
        assert.equal(
          (await fetch(`${server.base}/q/${code}`, { headers: { "user-agent": IPHONE }, redirect: "manual" })).status,
          302,
        );
      const today = new Date().toISOString().slice(0, 10);
      const exported = async () =>
        (await (await api(`/v1/dynqrcodes/${code}/analytics/export?from=${today}&to=${today}`)).text())
          .trim()
          .split("\r\n").length - 1;
      const totals = async () =>
        (await (await api(`/v1/dynqrcodes/${code}/analytics?from=${today}&to=${today}`)).json()) as {
          total_scans: number;
          unique_scans: number;
        };
      for (let tries = 0; (await exported()) < 5 && tries < 50; tries++) await new Promise((r) => setTimeout(r, 200));
      assert.equal(await exported(), 5);
      await server.stop();

      // 70 days later, without the setting: nothing goes.
      server = await startServer({ ...env, CLOCK_OFFSET_SECONDS: String(70 * DAY) });
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(await exported(), 5);
      await server.stop();

      const partitions = async () => {
        const client = new pg.Client(pgConfigFromUrl(database.url));
        await client.connect();
        const { rows } = await client.query(
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"ScanEvent"'::regclass`,
        );
        await client.end();
        return (rows as { name: string }[]).map((r) => r.name);
      };
      const month = (at: number) => `ScanEvent_${new Date(at).toISOString().slice(0, 7).replace("-", "_")}`;
      const postgres = database.url.startsWith("postgres");
      if (postgres) assert.ok((await partitions()).includes(month(Date.now())));

      // With 30 days: the sweep at start removes them; the analytics still count them.
      server = await startServer({ ...env, CLOCK_OFFSET_SECONDS: String(70 * DAY), SCAN_EVENT_RETENTION_DAYS: "30" });
      for (let tries = 0; (await exported()) > 0 && tries < 50; tries++) await new Promise((r) => setTimeout(r, 200));
      assert.equal(await exported(), 0);
      assert.deepEqual(await totals(), { ...(await totals()), total_scans: 5, unique_scans: 1 });
      if (postgres) {
        const names = await partitions();
        assert.ok(!names.includes(month(Date.now())), `this month's partition dropped: ${names}`);
        const ahead = new Date(Date.now() + 70 * DAY * 1000);
        for (let m = 0; m <= 2; m++)
          assert.ok(
            names.includes(month(Date.UTC(ahead.getUTCFullYear(), ahead.getUTCMonth() + m, 1))),
            `month +${m} of the clock: ${names}`,
          );
      }
      await server.stop();
    } finally {
      await database.cleanup();
    }
  });
});
