// The stall watch's probe (server/platform/pg-pool.ts) judges the database, not this process:
// a healthy database is not called stalled because the event loop was held while it answered
// (that cut a healthy connection on a loaded CI machine), and a stalled one still fails the
// probe within the 2 s that /v1 has to answer 503 (issue 38).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { databaseAnswers } from "../../server/platform/pg-pool";
import { env } from "../../server/platform/env";
import { faultRelay } from "../fault-relay";

/** Holds this thread's event loop, as a long turn or a saturated machine does. */
const holdLoop = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end);
};

describe("the database probe", () => {
  it("answers true for a healthy database, even when the event loop is held past the probe's 400 ms", async () => {
    assert.equal(await databaseAnswers(), true);
    for (const held of [600, 1500]) {
      const probe = databaseAnswers();
      holdLoop(held);
      assert.equal(await probe, true, `the loop held ${held} ms`);
    }
  });

  it("answers false for a database that accepts and never answers, within 2 s", async () => {
    const relay = await faultRelay(env.databaseUrl);
    try {
      assert.equal(await databaseAnswers(relay.url), true, "through the relay while it relays");
      await relay.set("stall");
      const started = performance.now();
      assert.equal(await databaseAnswers(relay.url), false);
      const ms = performance.now() - started;
      assert.ok(ms < 2000, `a stalled database is told within 2 s (${Math.round(ms)} ms)`);
    } finally {
      await relay.close();
    }
  });
});
