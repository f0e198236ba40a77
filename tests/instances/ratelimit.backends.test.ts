// Rate limits that need servers of their own: a lowered daily quota, the per-address limit on
// key guesses, and two instances sharing a Redis that goes away and comes back.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { personalKey, prepareBurst, withPair } from "../helpers";
import { startServer, type RunningServer } from "../../scripts/harness";
import { keyRule } from "../../server/rate-limit";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const get = (server: RunningServer, key?: string) =>
  fetch(`${server.base}/v1/qrcodes`, { headers: key ? { "x-api-key": key } : {} }).then(async (r) => ({
    status: r.status,
    headers: r.headers,
    body: await r.json(),
  }));
/**
 * n GET /v1/qrcodes at once (see `prepareBurst`), each to one of the servers in turn; `ms` from
 * the first sent to the last answered (the connections opened before), and the most requests
 * any answer said were left in the bucket (`RateLimit: "burst";r=…`).
 */
const statuses = async (servers: RunningServer[], key: string, n: number) => {
  const prepared = await prepareBurst(
    Array.from({ length: n }, (_, i) => ({
      url: `${servers[i % servers.length].base}/v1/qrcodes`,
      headers: { "x-api-key": key },
    })),
  );
  const started = performance.now();
  const replies = await prepared.fire();
  const ms = performance.now() - started;
  const by = (s: number) => replies.filter((r) => r.status === s).length;
  const left = replies.map((r) => Number(/"burst";r=(\d+)/.exec(String(r.headers["ratelimit"] ?? ""))?.[1] ?? -1));
  return { ok: by(200), refused: by(429), other: replies.length - by(200) - by(429), ms, mostLeft: Math.max(...left) };
};
/**
 * A personal key's bucket (10, refilled 5 a second) passes 10 of a burst, plus what refilled
 * while the burst was answered: on a loaded machine 40 requests take longer than the 200 ms
 * one token does. Whatever the timing, the first answer leaves 9 (a refill never fills the
 * bucket beyond its 10). Returns how many passed.
 */
const assertOneBucket = (r: Awaited<ReturnType<typeof statuses>>, n: number) => {
  const { capacity, refillPerSecond } = keyRule("personal");
  const refilled = Math.floor((refillPerSecond * r.ms) / 1000);
  assert.deepEqual(
    { other: r.other, answered: r.ok + r.refused, mostLeft: r.mostLeft },
    { other: 0, answered: n, mostLeft: capacity - 1 },
  );
  assert.ok(
    r.ok >= capacity && r.ok <= capacity + refilled,
    `${r.ok} passed of ${n} in ${Math.round(r.ms)} ms: ${capacity} allowed, + ${refilled} refilled`,
  );
  return r.ok;
};
/** A burst of 40 across both instances of a fresh key, retried while it takes a second or more (then two buckets, 20, could pass for one). */
const assertSharedBucket = async (servers: RunningServer[]) => {
  for (let attempt = 1; ; attempt++) {
    const { key } = await personalKey();
    const r = await statuses(servers, key, 40);
    if (r.ms < 1000 || attempt === 5) return assertOneBucket(r, 40);
  }
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
    const passed = assertOneBucket(await statuses([server], key, 20), 20);
    await sleep(2100); // the bucket is full again
    const replies = [];
    for (let i = 0; i < 10; i++) {
      replies.push(await get(server, key));
      await sleep(250); // slower than the refill: only the quota can refuse
    }
    const left = 15 - passed;
    assert.deepEqual(
      replies.map((r) => r.status),
      Array.from({ length: 10 }, (_, i) => (i < left ? 200 : 429)),
    );
    const refused = replies[9];
    assert.deepEqual(refused.body, { error: "Rate limit exceeded" });
    const toMidnight = Math.ceil((Math.ceil(Date.now() / 86_400_000) * 86_400_000 - Date.now()) / 1000);
    assert.ok(
      Math.abs(Number(refused.headers.get("retry-after")) - toMidnight) <= 3,
      `Retry-After ${refused.headers.get("retry-after")}, ${toMidnight} s to midnight`,
    );
    assert.equal(refused.headers.get("x-ratelimit-limit"), "15");
    assert.equal(refused.headers.get("x-ratelimit-remaining"), "0");
  });
});

describe("missing and invalid keys, per client address", () => {
  let server: RunningServer;
  before(async () => {
    // Refilled once in 1,000 s: a burst slower than a second (a loaded machine) still meets exactly 60.
    server = await startServer({ INVALID_KEY_LIMIT_PER_SECOND: "0.001", ...ownPrefix() });
  });
  after(() => server.stop());

  it("70 guesses at once → 60 answered 401, 10 refused 429; a valid key from the same address still passes", async () => {
    const guesses = Array.from({ length: 70 }, (_, i) =>
      get(server, i % 2 ? `qrp_${"g".repeat(39)}${i % 10}` : undefined),
    );
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

  it("both hammering one key: together they pass one bucket's 10 (and what refilled meanwhile)", async () => {
    await assertSharedBucket([pair.a, pair.b]);
  });

  it("Redis stops: no 500, limits per instance; Redis returns: shared limits again", async () => {
    await pair.redis.stop();
    const { key } = await personalKey();
    assertOneBucket(await statuses([pair.a], key, 30), 30);
    assertOneBucket(await statuses([pair.b], key, 30), 30);

    await pair.redis.start();
    for (let i = 0; i < 50; i++) {
      // Until both have reconnected (their retry waits grow to 2 s), probe with a throwaway key.
      const { key: probe } = await personalKey();
      const r = await statuses([pair.a, pair.b], probe, 24);
      if (r.ok < 16) break; // two buckets pass 20
      await sleep(200);
    }
    await assertSharedBucket([pair.a, pair.b]);
  });
});
