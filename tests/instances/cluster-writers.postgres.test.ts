// The cluster bench's writers (scripts/bench/cluster.ts), short and slower, in CI: three
// instances on PostgreSQL + a Redis of their own behind nginx (deploy/nginx/qr-records.conf),
// recorded /q at a fixed rate over 1,000 codes. The backlog stays bounded, PostgreSQL counts no
// deadlock in the run's database, and every answered scan is a row within 10 s of the load's
// end (each instance's resident memory is reported, not asserted: it is the bench's figure).
// The 5-minute figure at 2,000 a second: `npm run bench -- --only cluster`. PostgreSQL only.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { clusterLoad, makeCodes } from "../../scripts/bench/cluster";
import { env } from "../../server/platform/env";
import { closeRedis } from "../../server/platform/redis";

// The domain functions that make the codes open the run's Redis: closed, or the test process stays.
after(() => closeRedis());

const SECONDS = 30;
const RATE = 500;

describe("the cluster's writers keep up", () => {
  it(`${RATE} recorded /q a second for ${SECONDS} s through nginx: bounded backlog, no deadlock, all written within 10 s`, async (t) => {
    const codes = await makeCodes(1000);
    const run = await clusterLoad(env.databaseUrl, codes, SECONDS, RATE, (line) => t.diagnostic(line));
    t.diagnostic(
      `answered ${run.answered} (other ${run.other}), stored ${run.stored}; backlog at the end ${run.endBacklog}, peak ${run.peakBacklog}; ` +
        `deadlocks ${run.deadlocks}; all written ${run.catchUpMs} ms after the load; peak RSS ${run.peakRssMb.map((m) => m.toFixed(0)).join("/")} MB; ` +
        `written ${run.writtenPerSecond.map((w) => w.toFixed(0)).join("+")} scans/s`,
    );
    assert.equal(run.other, 0, "every request answered 302");
    // A loaded machine may not reach the rate (autocannon, the instances and PostgreSQL share its cores).
    assert.ok(run.answered > RATE * SECONDS * 0.5, `the load ran: ${run.answered} answered`);
    assert.ok(run.endBacklog < RATE * 5, `backlog ${run.endBacklog} at the load's end: over 5 s of traffic`);
    assert.ok(run.peakBacklog < RATE * 5, `backlog peaked at ${run.peakBacklog}: over 5 s of traffic`);
    assert.equal(run.deadlocks, 0, "PostgreSQL detected deadlocks");
    assert.ok(
      run.catchUpMs !== null && run.catchUpMs < 10_000,
      `every scan written ${run.catchUpMs} ms after the load's end`,
    );
    assert.equal(run.stored, run.answered, "every answered redirect is a row");
  });
});
