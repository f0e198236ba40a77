// Two instances sharing a database and a Redis: a change made through one is seen by the very
// next scan on the other, also while Redis is away and after it comes back.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { personalKey, withPair } from "../helpers";
import type { RunningServer } from "../../scripts/harness";

describe("two instances, one Redis", () => {
  const pair = withPair();

  it("PATCH and DELETE on one instance are seen by the next scans on the other", async (t) => {
    const { key } = await personalKey();
    const call = (server: RunningServer, method: string, path: string, json?: unknown) =>
      fetch(server.base + path, {
        method,
        redirect: "manual",
        headers: { "x-api-key": key, ...(json ? { "content-type": "application/json" } : {}) },
        body: json ? JSON.stringify(json) : undefined,
      });
    const created = await (
      await call(pair.a, "POST", "/v1/dynqrcodes", { destination_url: "https://example.com/one", name: "Shared" })
    ).json();
    const code = created.created[0].code as string;
    const scanOnB = async () => {
      const r = await call(pair.b, "GET", `/q/${code}`);
      return r.status === 302 ? r.headers.get("location") : r.status;
    };
    /**
     * Pub/sub is not a transaction: B hears of a change a moment after A confirms it, nearly
     * always before the next scan reaches B (resolve.ts lets a waiting message in first). The
     * check allows 250 ms; without invalidation B would serve its cached answer forever.
     */
    let late = 0;
    const seenOnB = async (expected: string | number) => {
      const until = Date.now() + 250;
      let got = await scanOnB();
      while (got !== expected && Date.now() < until) {
        late++;
        await new Promise((r) => setTimeout(r, 10));
        got = await scanOnB();
      }
      assert.equal(got, expected);
    };
    // B waits until it is subscribed before it caches anything: give it that moment.
    const deadline = Date.now() + 5000;
    while ((await scanOnB()) !== "https://example.com/one" && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(await scanOnB(), "https://example.com/one");
    await new Promise((r) => setTimeout(r, 300)); // subscribed by now:
    assert.equal(await scanOnB(), "https://example.com/one"); // B caches the code

    assert.equal(
      (await call(pair.a, "PATCH", `/v1/dynqrcodes/${code}`, { destination_url: "https://example.com/two" })).status,
      200,
    );
    await seenOnB("https://example.com/two");
    assert.equal((await call(pair.a, "PATCH", `/v1/dynqrcodes/${code}`, { status: "paused" })).status, 200);
    await seenOnB(404);
    assert.equal((await call(pair.a, "PATCH", `/v1/dynqrcodes/${code}`, { status: "active" })).status, 200);
    await seenOnB("https://example.com/two");

    // Redis goes away: B cannot hear of changes, so it asks the database.
    await pair.redis.stop();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(
      (await call(pair.a, "PATCH", `/v1/dynqrcodes/${code}`, { destination_url: "https://example.com/three" })).status,
      200,
    );
    assert.equal(await scanOnB(), "https://example.com/three");

    // Redis is back: B subscribes again and forgets what it held.
    await pair.redis.start();
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(await scanOnB(), "https://example.com/three");
    assert.equal((await call(pair.a, "DELETE", `/v1/dynqrcodes/${code}`)).status, 200);
    await seenOnB(410);
    t.diagnostic(`scans on B that came before the change reached it: ${late}`);
  });
});
