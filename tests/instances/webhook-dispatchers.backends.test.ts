// Webhooks with several instances (contract: "Webhooks": "With several instances each attempt is
// made by one"): three dispatchers on one database deliver each event once. On a database of
// this file's own (tests/tiers.ts, OWN_DATABASE), with nothing but its three instances: on the
// run's database, a neighbouring file's instance stopped in the middle of an attempt abandons it
// by design, and its claim's expiry then makes a second attempt (at least once), which would
// count here as a duplicate.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/harness";
import { http, personalKey, until, withPair } from "../helpers";
import { created, DELIVERY_WAIT_MS, receiver } from "../webhook-receiver";

describe("three instances on one database", () => {
  const pair = withPair();
  let third: RunningServer;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  before(async () => {
    third = await startServer({ REDIS_URL: pair.redis.url });
    hooks = await receiver();
  });
  after(async () => {
    await third.stop();
    await hooks.close();
  });

  it("three dispatchers deliver each of 60 events once", async () => {
    const { key } = await personalKey();
    created(
      await http("POST", "/v1/webhooks", {
        key,
        base: third.base,
        json: { url: `${hooks.base}/three`, events: ["dynqrcode.created"] },
      }),
    );
    for (const base of [pair.a.base, pair.b.base]) {
      const r = await fetch(`${base}/v1/dynqrcodes/batch`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({
          dynqrcodes: Array.from({ length: 30 }, (_, i) => ({
            destination_url: `https://example.com/three/${i}`,
            name: `three ${i}`,
          })),
        }),
      });
      assert.equal(r.status, 201);
      await r.arrayBuffer();
    }
    const mine = () => hooks.received.filter((r) => r.path === "/three");
    await until(() => mine().length >= 60, "60 deliveries", DELIVERY_WAIT_MS);
    await new Promise((r) => setTimeout(r, 1000)); // no duplicate follows
    assert.equal(mine().length, 60);
    assert.equal(new Set(mine().map((r) => r.headers["webhook-id"])).size, 60);
  });
});
