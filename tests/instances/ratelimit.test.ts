// Rate limits that need servers of their own: a lowered daily quota, the per-address limit on
// key guesses, and two instances sharing a Redis that goes away and comes back.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { burst, personalKey, withPair } from "../helpers";
import { startServer, type RunningServer } from "../../scripts/harness";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const get = (server: RunningServer, key?: string) =>
  fetch(`${server.base}/v1/qrcodes`, { headers: key ? { "x-api-key": key } : {} }).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() }));
/** n GET /v1/qrcodes at once (see `burst`), each to one of the servers in turn. */
const statuses = async (servers: RunningServer[], key: string, n: number) => {
  const replies = await burst(Array.from({ length: n }, (_, i) => ({ url: `${servers[i % servers.length].base}/v1/qrcodes`, headers: { "x-api-key": key } })));
  const by = (s: number) => replies.filter((r) => r.status === s).length;
  return { ok: by(200), refused: by(429), other: replies.length - by(200) - by(429) };
};
/** Keys and channels of this server's own in Redis (when the run uses one). */
const ownPrefix = () => ({ REDIS_KEY_PREFIX: `qrtest:${process.pid}:${Math.random().toString(36).slice(2)}:` });

describe("daily quota (lowered to 15 for this server)", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ RATE_LIMIT_PERSONAL_DAILY_QUOTA: "15", ...ownPrefix() });
  });
  after(() => server.stop());

  it("burst refusals do not count; quota + more requests → exactly the quota pass; Retry-After runs to midnight", async () => {
    const { key } = await personalKey();
    assert.deepEqual(await statuses([server], key, 20), { ok: 10, refused: 10, other: 0 });
    await sleep(2100); // the bucket is full again
    const replies = [];
    for (let i = 0; i < 10; i++) {
      replies.push(await get(server, key));
      await sleep(250); // slower than the refill: only the quota can refuse
    }
    assert.deepEqual(replies.map((r) => r.status), [200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
    const refused = replies[9];
    assert.deepEqual(refused.body, { error: "Rate limit exceeded" });
    const toMidnight = Math.ceil((Math.ceil(Date.now() / 86_400_000) * 86_400_000 - Date.now()) / 1000);
    assert.ok(Math.abs(Number(refused.headers.get("retry-after")) - toMidnight) <= 3, `Retry-After ${refused.headers.get("retry-after")}, ${toMidnight} s to midnight`);
    assert.equal(refused.headers.get("x-ratelimit-limit"), "15");
    assert.equal(refused.headers.get("x-ratelimit-remaining"), "0");
  });
});

describe("missing and invalid keys, per client address", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer(ownPrefix());
  });
  after(() => server.stop());

  it("70 guesses at once → 60 answered 401, 10 refused 429; a valid key from the same address still passes", async () => {
    const guesses = Array.from({ length: 70 }, (_, i) => get(server, i % 2 ? `qrp_${"g".repeat(39)}${i % 10}` : undefined));
    const replies = await Promise.all(guesses);
    assert.equal(replies.filter((r) => r.status === 401).length, 60);
    assert.equal(replies.filter((r) => r.status === 429).length, 10);
    const refused = replies.find((r) => r.status === 429)!;
    assert.deepEqual(refused.body, { error: "Rate limit exceeded" });
    assert.ok(Number(refused.headers.get("retry-after")) >= 1);
    const { key } = await personalKey();
    assert.equal((await get(server, key)).status, 200);
  });
});

describe("two instances sharing a Redis", () => {
  const pair = withPair();

  const hammer = (key: string, n: number) => statuses([pair.a, pair.b], key, n);

  it("both hammering one key: the total allowed is exactly the limit", async () => {
    const { key } = await personalKey();
    assert.deepEqual(await hammer(key, 40), { ok: 10, refused: 30, other: 0 });
  });

  it("Redis stops: no 500, limits per instance; Redis returns: shared limits again", async () => {
    await pair.redis.stop();
    const { key } = await personalKey();
    assert.deepEqual(await statuses([pair.a], key, 30), { ok: 10, refused: 20, other: 0 });
    assert.deepEqual(await statuses([pair.b], key, 30), { ok: 10, refused: 20, other: 0 });

    await pair.redis.start();
    const { key: fresh } = await personalKey();
    for (let i = 0; i < 50; i++) {
      // Until both have reconnected (their retry waits grow to 2 s), probe with a throwaway key.
      const { key: probe } = await personalKey();
      const r = await hammer(probe, 24);
      if (r.ok === 10) break;
      await sleep(200);
    }
    assert.deepEqual(await hammer(fresh, 40), { ok: 10, refused: 30, other: 0 });
  });
});
