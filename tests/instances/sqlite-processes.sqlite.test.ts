// Several processes on one SQLite file, without Redis (issue 38): a change made through one
// reaches the other's cache within a second (before, the other kept redirecting to the old
// destination for good). SQLite only (with PostgreSQL, Redis tells the instances).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startServer } from "../../scripts/harness";
import { BASE_URL, http, personalKey } from "../helpers";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("two processes on one SQLite file", () => {
  it("a change made through one redirects through the other within a second", async (t) => {
    const other = await startServer({ REDIS_URL: "", SERVE_PAGES: "0" });
    try {
      const { key } = await personalKey();
      const created = await http("POST", "/v1/dynqrcodes", {
        key,
        json: { destination_url: "https://example.com/before", name: "Two processes" },
      });
      const { code } = (created.body as { created: { code: string }[] }).created[0];
      const location = async () => {
        const res = await fetch(`${other.base}/q/${code}`, {
          redirect: "manual",
          headers: { "user-agent": "Mozilla/5.0 (iPhone) Safari/604.1" },
        });
        await res.arrayBuffer();
        return res.headers.get("location");
      };
      assert.equal(await location(), "https://example.com/before");
      assert.equal(await location(), "https://example.com/before"); // now from the other's cache
      const changed = await fetch(`${BASE_URL}/v1/dynqrcodes/${code}`, {
        method: "PATCH",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ destination_url: "https://example.com/after" }),
      });
      assert.equal(changed.status, 200);
      const started = Date.now();
      let now = await location();
      while (now !== "https://example.com/after" && Date.now() - started < 3000) {
        await sleep(50);
        now = await location();
      }
      const ms = Date.now() - started;
      t.diagnostic(`the other process redirects to the new destination ${ms} ms after the change`);
      assert.equal(now, "https://example.com/after");
      assert.ok(ms < 1000, `${ms} ms`);
    } finally {
      await other.stop();
    }
  });
});
