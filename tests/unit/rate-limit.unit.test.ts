// The token bucket with a daily quota (in process; the Redis script does the same arithmetic).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rateLimitHeaders } from "../../server/http/rate-limit-headers";
import { mirrorInStore, newBucketStore, takeFromStore, type Rule } from "../../server/rate-limit";

const DAY = 86_400_000;
const rule: Rule = { capacity: 10, refillPerSecond: 5, dailyQuota: 0 };
const t0 = Date.UTC(2026, 10, 23, 12, 0, 0);

describe("token bucket", () => {
  it("a burst takes exactly the capacity, then refuses with a whole-second Retry-After", () => {
    const store = newBucketStore();
    const decisions = Array.from({ length: 12 }, () => takeFromStore(store, "k", rule, 1, t0));
    assert.equal(decisions.filter((d) => d.allowed).length, 10);
    assert.deepEqual([decisions[10].allowed, decisions[10].retryAfter], [false, 1]);
  });

  it("refills at its rate: 1 s after emptying, exactly 5 more", () => {
    const store = newBucketStore();
    for (let i = 0; i < 10; i++) takeFromStore(store, "k", rule, 1, t0);
    const later = Array.from({ length: 7 }, () => takeFromStore(store, "k", rule, 1, t0 + 1000));
    assert.equal(later.filter((d) => d.allowed).length, 5);
    // never above the capacity, however long it rests
    const rested = Array.from({ length: 12 }, () => takeFromStore(store, "k", rule, 1, t0 + 3_600_000));
    assert.equal(rested.filter((d) => d.allowed).length, 10);
  });

  it("a fallback carries on from Redis's last answer: an emptied bucket stays empty, a daily count stays counted", () => {
    const store = newBucketStore();
    const shared = newBucketStore(); // stands for Redis's bucket: the same arithmetic
    const quota: Rule = { capacity: 10, refillPerSecond: 5, dailyQuota: 12 };
    for (let i = 0; i < 10; i++) mirrorInStore(store, "k", quota, takeFromStore(shared, "k", quota, 1, t0), t0);
    assert.equal(takeFromStore(store, "k", quota, 1, t0).allowed, false, "the mirrored bucket is empty, as Redis's");
    const later = Array.from({ length: 5 }, () => takeFromStore(store, "k", quota, 1, t0 + 1000));
    assert.equal(
      later.filter((d) => d.allowed).length,
      2,
      "it refills, up to the day's quota Redis had counted (10 of 12)",
    );
  });

  it("cost 0 asks without consuming", () => {
    const store = newBucketStore();
    for (let i = 0; i < 20; i++) assert.equal(takeFromStore(store, "k", rule, 0, t0).allowed, true);
    assert.equal(
      Array.from({ length: 11 }, () => takeFromStore(store, "k", rule, 1, t0)).filter((d) => d.allowed).length,
      10,
    );
  });

  it("a partial token gives the wait until a whole one, rounded up to seconds (at least 1)", () => {
    const slow: Rule = { capacity: 1, refillPerSecond: 0.25, dailyQuota: 0 };
    const store = newBucketStore();
    takeFromStore(store, "k", slow, 1, t0);
    assert.equal(takeFromStore(store, "k", slow, 1, t0 + 1000).retryAfter, 3);
  });

  it("the daily quota refuses until the next 00:00 UTC, and counts only what passed", () => {
    const quota: Rule = { capacity: 100, refillPerSecond: 100, dailyQuota: 3 };
    const store = newBucketStore();
    const d = Array.from({ length: 4 }, () => takeFromStore(store, "k", quota, 1, t0));
    assert.deepEqual(
      d.map((x) => x.used),
      [1, 2, 3, 3],
    );
    assert.equal(d[3].allowed, false);
    assert.equal(d[3].retryAfter, 12 * 3600);
    assert.equal(d[3].resetAt, (Math.floor(t0 / DAY) + 1) * 86_400);
    assert.equal(takeFromStore(store, "k", quota, 1, Math.ceil(t0 / DAY) * DAY).allowed, true);
  });

  it("keys are independent", () => {
    const store = newBucketStore();
    for (let i = 0; i < 10; i++) takeFromStore(store, "a", rule, 1, t0);
    assert.equal(takeFromStore(store, "a", rule, 1, t0).allowed, false);
    assert.equal(takeFromStore(store, "b", rule, 1, t0).allowed, true);
  });

  it("a negative cost gives tokens back, never past the capacity, and is never refused", () => {
    const store = newBucketStore();
    for (let i = 0; i < 10; i++) takeFromStore(store, "k", rule, 1, t0);
    const refund = takeFromStore(store, "k", rule, -1, t0);
    assert.deepEqual([refund.allowed, refund.tokens], [true, 1]);
    assert.equal(takeFromStore(store, "k", rule, 1, t0).allowed, true, "the refunded token is taken again");
    assert.equal(takeFromStore(store, "k", rule, 1, t0).allowed, false);
    const full = newBucketStore();
    assert.equal(takeFromStore(full, "k", rule, -5, t0).tokens, 10);
  });

  it("says which limit refused, and how many whole tokens are left", () => {
    const quota: Rule = { capacity: 2, refillPerSecond: 1, dailyQuota: 3 };
    const store = newBucketStore();
    const d = Array.from({ length: 3 }, () => takeFromStore(store, "k", quota, 1, t0));
    assert.deepEqual(
      d.map((x) => [x.tokens, x.refusedBy]),
      [
        [1, null],
        [0, null],
        [0, "burst"],
      ],
    );
    takeFromStore(store, "k", quota, 1, t0 + 1000);
    assert.equal(takeFromStore(store, "k", quota, 1, t0 + 5000).refusedBy, "daily");
  });

  it("buckets that have refilled are swept, at most once a minute", () => {
    const store = newBucketStore();
    takeFromStore(store, "old", rule, 1, t0);
    takeFromStore(store, "new", rule, 1, t0 + 59_000);
    // A 10-token bucket at 5/s is full after 2 s, and kept 1 s more.
    takeFromStore(store, "other", rule, 1, t0 + 61_000);
    assert.deepEqual([...store.states.keys()].sort(), ["new", "other"]);
  });
});

describe("rate limit headers", () => {
  const personal: Rule = { capacity: 10, refillPerSecond: 5, dailyQuota: 2000 };

  it("the daily quota as X-RateLimit-*, both limits as RateLimit-Policy, the tighter one as RateLimit", () => {
    const store = newBucketStore();
    const decision = takeFromStore(store, "k", personal, 1, t0);
    assert.deepEqual(rateLimitHeaders(personal, decision, t0), {
      "X-RateLimit-Limit": "2000",
      "X-RateLimit-Remaining": "1999",
      "X-RateLimit-Reset": String((Math.floor(t0 / DAY) + 1) * 86_400),
      "RateLimit-Policy": '"burst";q=10;w=2, "daily";q=2000;w=86400',
      RateLimit: '"burst";r=9;t=1',
    });
  });

  it("a refusal names the limit that refused and when to come back", () => {
    const store = newBucketStore();
    let decision = takeFromStore(store, "k", personal, 1, t0);
    for (let i = 0; i < 10; i++) decision = takeFromStore(store, "k", personal, 1, t0);
    assert.equal(rateLimitHeaders(personal, decision, t0).RateLimit, '"burst";r=0;t=1');
    const nearlySpent: Rule = { capacity: 10, refillPerSecond: 5, dailyQuota: 3 };
    const quota = newBucketStore();
    const d = Array.from({ length: 4 }, () => takeFromStore(quota, "k", nearlySpent, 1, t0));
    assert.equal(
      rateLimitHeaders(nearlySpent, d[1], t0).RateLimit,
      `"daily";r=1;t=${12 * 3600}`,
      "fewer left of the day than in the bucket",
    );
    assert.equal(rateLimitHeaders(nearlySpent, d[3], t0).RateLimit, `"daily";r=0;t=${12 * 3600}`);
    const even: Rule = { capacity: 10, refillPerSecond: 5, dailyQuota: 10 };
    assert.equal(
      rateLimitHeaders(even, takeFromStore(newBucketStore(), "k", even, 1, t0), t0).RateLimit,
      '"burst";r=9;t=1',
      "as many left of each: the bucket",
    );
  });

  it("without a daily quota only the bucket is named", () => {
    const invalidKey: Rule = { capacity: 60, refillPerSecond: 1, dailyQuota: 0 };
    const h = rateLimitHeaders(invalidKey, takeFromStore(newBucketStore(), "k", invalidKey, 1, t0), t0);
    assert.deepEqual([h["RateLimit-Policy"], h.RateLimit], ['"burst";q=60;w=60', '"burst";r=59;t=1']);
  });
});
