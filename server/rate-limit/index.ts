// Rate limits: a token bucket, optionally with a quota per UTC day, checked and consumed in
// one atomic step, so that a request refused by one limit consumes nothing of the other.
//
// Stores: in process (the embedded default), or with REDIS_URL one Lua script on Redis,
// timed by the Redis server's clock and shared by every instance. No library gives this
// exactly: rate-limiter-flexible has no true token bucket (its BurstyRateLimiter lets about
// 5.5/s through for 5/s) and cannot make two limits one atomic decision; @upstash/ratelimit
// needs Upstash's HTTP service and has no in-process store.
//
// Faults: when Redis is away or slow (a command waits at most 250 ms), each instance falls
// back to its own in-process limits, logs the fault, and returns to Redis when it is back.
import DataLoader from "dataloader";
import type { Redis } from "ioredis";
import { env } from "../platform/env";
import { ONE_TURN } from "../platform/event-loop";
import { logError } from "../platform/log";
import { processSingleton } from "../platform/process-singleton";
import { defineScript, neverReady, redis, redisPrefix, whenReady } from "../platform/redis";

export type Rule = {
  /** Bucket size: the burst. */
  capacity: number;
  refillPerSecond: number;
  /** Requests per UTC day; 0 for none. */
  dailyQuota: number;
};

export type Decision = {
  allowed: boolean;
  /** Whole seconds until the request could pass (at least 1); 0 when allowed. */
  retryAfter: number;
  /** Spent of the day's quota, after this request. */
  used: number;
  /** Epoch seconds of the next 00:00 UTC. */
  resetAt: number;
  /** Whole tokens left in the bucket, after this request. */
  tokens: number;
  /** The limit that refused: the bucket (`burst`) or the day's quota (`daily`); null when allowed. */
  refusedBy: "burst" | "daily" | null;
};

const DAY_MS = 86_400_000;

/** A bucket's time to fill up again, or two days for a daily quota: its state expires after. */
const lifetimeMs = (rule: Rule) =>
  Math.max(rule.dailyQuota > 0 ? 2 * DAY_MS : 0, Math.ceil((rule.capacity / rule.refillPerSecond) * 1000) + 1000);

/** Which limit refused, as both stores say it. */
const DAILY = 1;
const BURST = 2;

/** Both stores answer with the wait in milliseconds: 0 passes; else whole seconds, at least 1. */
const decision = (retryMs: number, used: number, resetAt: number, tokens: number, refused: number): Decision => ({
  allowed: retryMs === 0,
  retryAfter: retryMs === 0 ? 0 : Math.max(1, Math.ceil(retryMs / 1000)),
  used,
  resetAt,
  tokens: Math.floor(tokens),
  refusedBy: retryMs === 0 ? null : refused === DAILY ? "daily" : "burst",
});

// ---- in process -------------------------------------------------------------------------

type State = { tokens: number; at: number; day: number; used: number; expiresAt: number };
/** Buckets by limit key, swept of expired ones at most once a minute. */
export type BucketStore = { states: Map<string, State>; lastSweep: number };
export const newBucketStore = (): BucketStore => ({ states: new Map(), lastSweep: 0 });

// One per process (Next and the Node server each load this module; an instance has one store),
// with the Redis fallback's state beside it.
const limiter = processSingleton("rateLimit", () => ({
  store: newBucketStore(),
  redisFailing: false,
  /** One wait for the first connection, shared by the requests that arrive meanwhile. */
  firstConnection: undefined as Promise<void> | undefined,
}));
const MAX_STATES = 200_000;

/** The same arithmetic as the Lua script below, on `store`. `cost` 0 asks without consuming; a negative one gives tokens back. */
/** Expired buckets go at most once a minute; beyond MAX_STATES (an attack from many addresses), the oldest first. */
function sweep(store: BucketStore, now: number): void {
  const { states } = store;
  if (now - store.lastSweep <= 60_000 && states.size <= MAX_STATES) return;
  store.lastSweep = now;
  for (const [k, s] of states) if (s.expiresAt < now) states.delete(k);
  for (const k of states.keys()) {
    if (states.size <= MAX_STATES * 0.9) break;
    states.delete(k);
  }
}

export function takeFromStore(store: BucketStore, key: string, rule: Rule, cost = 1, now = Date.now()): Decision {
  const { states } = store;
  sweep(store, now);
  const day = Math.floor(now / DAY_MS);
  const state = states.get(key);
  let tokens = state
    ? Math.min(rule.capacity, state.tokens + (Math.max(0, now - state.at) * rule.refillPerSecond) / 1000)
    : rule.capacity;
  let used = state && state.day === day ? state.used : 0;
  const need = Math.max(cost, 1);
  const resetMs = (day + 1) * DAY_MS;
  let retryMs = 0;
  let refused = 0;
  if (cost < 0)
    tokens = Math.min(rule.capacity, tokens - cost); // a refund is never refused
  else if (rule.dailyQuota > 0 && used + need > rule.dailyQuota) [retryMs, refused] = [resetMs - now, DAILY];
  else if (tokens < need) [retryMs, refused] = [((need - tokens) * 1000) / rule.refillPerSecond, BURST];
  else {
    tokens -= cost;
    used += cost;
  }
  states.set(key, { tokens, at: now, day, used, expiresAt: now + lifetimeMs(rule) });
  return decision(retryMs, used, resetMs / 1000, tokens, refused);
}

/** The process's own limits (the embedded default, and the fallback while Redis is away). */
export const takeInProcess = (key: string, rule: Rule, cost = 1, now = Date.now()) =>
  takeFromStore(limiter.store, key, rule, cost, now);

/**
 * Sets `store`'s bucket to what Redis last answered (whole tokens: never more than Redis had),
 * so that a fallback carries on from there: a fresh bucket would let a burst that Redis was
 * refusing pass while one command timed out.
 */
export function mirrorInStore(store: BucketStore, key: string, rule: Rule, answer: Decision, now = Date.now()): void {
  sweep(store, now);
  store.states.set(key, {
    tokens: answer.tokens,
    at: now,
    day: Math.floor(now / DAY_MS),
    used: answer.used,
    expiresAt: now + lifetimeMs(rule),
  });
}

// ---- Redis ------------------------------------------------------------------------------

// One decision per key of KEYS, in order: a key named twice is decided twice, the second time
// on the state the first decision left.
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local day = math.floor(now / 86400000)
local reset = (day + 1) * 86400000
local out = {}
for i, key in ipairs(KEYS) do
  local a = (i - 1) * 5
  local capacity, rate, quota, cost, ttl = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4]), tonumber(ARGV[a + 5])
  local s = redis.call('HMGET', key, 'tokens', 'at', 'day', 'used')
  local tokens = capacity
  if s[1] then tokens = math.min(capacity, tonumber(s[1]) + math.max(0, now - tonumber(s[2])) * rate / 1000) end
  local used = 0
  if tonumber(s[3]) == day then used = tonumber(s[4]) end
  local need = math.max(cost, 1)
  local retry = 0
  local refused = 0
  if cost < 0 then
    tokens = math.min(capacity, tokens - cost)
  elseif quota > 0 and used + need > quota then
    retry = reset - now
    refused = 1
  elseif tokens < need then
    retry = (need - tokens) * 1000 / rate
    refused = 2
  else
    tokens = tokens - cost
    used = used + cost
  end
  redis.call('HSET', key, 'tokens', tostring(tokens), 'at', tostring(now), 'day', tostring(day), 'used', tostring(used))
  redis.call('PEXPIRE', key, ttl)
  out[#out + 1] = math.ceil(retry)
  out[#out + 1] = used
  out[#out + 1] = reset / 1000
  out[#out + 1] = math.floor(tokens)
  out[#out + 1] = refused
end
return out
`;

type LimitingRedis = Redis & {
  qrTakeTokens(keyCount: number, ...keysThenArgs: (string | number)[]): Promise<number[]>;
};

// Defined on the connection as it is made (EVALSHA, and the script itself only when Redis does not know it).
defineScript("qrTakeTokens", undefined, SCRIPT, true);

type Asked = { client: Redis; key: string; rule: Rule; cost: number };
/** A batch larger than this is split: one script holds Redis for all of its keys. */
const MAX_BATCH = 500;

/**
 * The takes of one event-loop turn (every /v1 request of a burst takes its limits here), in
 * one script run: one command to build, send, run and parse for the turn, not one per request
 * (that cost the main thread about a tenth of its time under API load). Needs one Redis, not a
 * cluster (a script's keys must share a slot); Upstash runs such scripts. A failed run fails
 * every take of the turn, and each falls back to the in-process limits, as a single one did.
 */
const redisTakes = processSingleton(
  "rateLimit.redisTakes",
  () =>
    new DataLoader<Asked, Decision>(
      async (asked) => {
        // The connection take() found ready (never a new one, made after a close).
        const client = asked[0].client as LimitingRedis;
        const keys = asked.map(({ key }) => `${redisPrefix()}rl:${key}`);
        const args = asked.flatMap(({ rule, cost }) => [
          rule.capacity,
          rule.refillPerSecond,
          rule.dailyQuota,
          cost,
          lifetimeMs(rule),
        ]);
        const answers = await client.qrTakeTokens(keys.length, ...keys, ...args);
        return asked.map((_, i) =>
          decision(answers[5 * i], answers[5 * i + 1], answers[5 * i + 2], answers[5 * i + 3], answers[5 * i + 4]),
        );
      },
      { ...ONE_TURN, maxBatchSize: MAX_BATCH },
    ),
);

/** Checks and consumes `cost` (0: only asks) of the limit named `key`. Never throws. */
export async function take(key: string, rule: Rule, cost = 1): Promise<Decision> {
  const client = redis();
  // A connection still being made for the first time gets a moment; one that was lost does not
  // (while it reconnects, a wait would let the in-process bucket refill under a burst).
  if (client && !limiter.redisFailing && neverReady(client))
    await (limiter.firstConnection ??= whenReady(client, 250).catch(() => undefined));
  if (client && client.status === "ready") {
    try {
      const decision = await redisTakes.load({ client, key, rule, cost });
      mirrorInStore(limiter.store, key, rule, decision);
      if (limiter.redisFailing) {
        limiter.redisFailing = false;
        logError("ratelimit.redis_restored", {});
      }
      return decision;
    } catch (error) {
      if (!limiter.redisFailing) logError("ratelimit.redis_failed", { fallback: "in-process limits" }, error);
      limiter.redisFailing = true;
    }
  } else if (client && !limiter.redisFailing) {
    limiter.redisFailing = true;
    logError("ratelimit.redis_unavailable", { status: client.status, fallback: "in-process limits" });
  }
  return takeInProcess(key, rule, cost);
}

/** Drops a limit's state (a key we never issued must not fill the store). Never throws. */
export async function forget(key: string): Promise<void> {
  limiter.store.states.delete(key);
  const client = redis();
  if (client && client.status === "ready") await client.del(`${redisPrefix()}rl:${key}`).catch(() => undefined);
}

// ---- the rules --------------------------------------------------------------------------

/** Per key (contract, "Rate limits"); the daily quotas come from the configuration. */
export const keyRule = (scope: "personal" | "business"): Rule =>
  scope === "personal"
    ? { capacity: 10, refillPerSecond: 5, dailyQuota: env.personalDailyQuota }
    : { capacity: 20, refillPerSecond: 10, dailyQuota: env.businessDailyQuota };

/** Requests with a missing or invalid key, per client address. */
export const invalidKeyRule = (): Rule => ({
  capacity: env.invalidKeyBurst,
  refillPerSecond: env.invalidKeyPerSecond,
  dailyQuota: 0,
});

/**
 * Failed log-ins (OWASP ASVS 2.2.1: a soft lock-out that no one else can set off): 5 per
 * account from one client address lock that pair only, and 20 per address lock the address,
 * each refilled over 15 minutes. Past 10 failures of an account from anywhere, each attempt
 * on it waits LOGIN_BRAKE_MS first: it slows guessing from many addresses and never refuses
 * the right password from an address of its own. `account` is for the checks on /profile,
 * where the caller holds the account's session: 5 wrong answers, then refused.
 */
export const loginRules = {
  account: { capacity: 5, refillPerSecond: 5 / 900, dailyQuota: 0 },
  pair: { capacity: 5, refillPerSecond: 5 / 900, dailyQuota: 0 },
  address: { capacity: 20, refillPerSecond: 20 / 900, dailyQuota: 0 },
  brake: { capacity: 10, refillPerSecond: 10 / 900, dailyQuota: 0 },
} satisfies Record<string, Rule>;

/** How long a log-in waits while its account's brake is on (bounded: it only slows). */
export const LOGIN_BRAKE_MS = 2000;

/** Keys generated on the pages: 10 per account, refilled over an hour. */
export const keyGenerationRule: Rule = { capacity: 10, refillPerSecond: 10 / 3600, dailyQuota: 0 };

const perHour = (count: number): Rule => ({ capacity: count, refillPerSecond: count / 3600, dailyQuota: 0 });

/** The account forms (contract: "Accounts for real"); each refills over an hour unless it says otherwise. */
export const accountRules = {
  /** Verification mails sent again: 3 per account. */
  resendVerification: perHour(3),
  /** Reset links asked for: 10 per client address and 3 per address typed (known or not, so the limit tells nothing). */
  resetByAddress: perHour(10),
  resetByAccount: perHour(3),
  /** Mailed links refused (unknown, used or expired tokens: verify, reset, confirm a new email): 20 per client address, refilled over 15 minutes. */
  linkByAddress: { capacity: 20, refillPerSecond: 20 / 900, dailyQuota: 0 },
  /** Wrong current passwords on /profile count as failed log-ins of the account. */
  passwordCheck: loginRules.account,
  /** Email changes asked for: 3 per account. */
  emailChange: perHour(3),
  /** Sign-ups per client address, SIGNUP_LIMIT_PER_HOUR (taken addresses count as new ones, so the limit tells nothing). */
  get signupByAddress() {
    return perHour(env.signupPerHour);
  },
  /** Notices to an address someone tried to sign up or move an account with: 3 per address, then no more mail (never a refusal, which would tell). */
  takenNotice: perHour(3),
} satisfies Record<string, Rule>;

/** Team invitations (each sends a mail): 20 per team, refilled over an hour. */
export const invitationRule: Rule = perHour(20);
