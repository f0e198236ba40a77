// A normal start on PostgreSQL + Redis (or SQLite + Redis) logs no warning and no error.
// (`npm start` on one SQLite file: starts.sqlite.test.ts.)
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dialect } from "../../server/platform/db";
import { startRedis, startServer } from "../../scripts/harness";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a normal start", () => {
  it(`on ${dialect === "postgres" ? "PostgreSQL" : "SQLite"} + Redis logs no warning and no error`, async (t) => {
    const redis = await startRedis();
    const server = await startServer({
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: `starts:${Date.now()}:`,
      LOG_LEVEL: "info",
    });
    try {
      // With PostgreSQL the copy of every code for outages is loaded; then one sweep of checks.
      for (let i = 0; i < 300 && dialect === "postgres" && !server.output().includes("resolutions.copy_loaded"); i++)
        await sleep(100);
      await sleep(6000);
      const lines = server
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"));
      t.diagnostic(
        `${lines.length} lines: ${lines.map((line) => (JSON.parse(line) as { event: string }).event).join(", ")}`,
      );
      if (dialect === "postgres")
        assert.ok(
          lines.some((line) => line.includes("resolutions.copy_loaded")),
          "the copy loaded",
        );
      assert.deepEqual(
        lines.filter((line) => !line.includes(`"level":"info"`)),
        [],
      );
      assert.equal(await server.stop(), 0);
    } finally {
      await server.stop();
      await redis.stop();
    }
  });
});
