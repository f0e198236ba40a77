// The headers of a key's limits on every authenticated /v1 answer. `X-RateLimit-*` describe
// the daily quota (contract, Part 1); the IETF fields (draft-ietf-httpapi-ratelimit-headers)
// describe both limits: `RateLimit-Policy` lists them, a token bucket as its capacity over the
// seconds it takes to fill (`"burst";q=20;w=2`: 20 at once, 10 a second), and `RateLimit`
// names the one that refused, or else the one with fewer requests left (README, "Rate limits").
import type { Decision, Rule } from "../rate-limit";

export function rateLimitHeaders(rule: Rule, decision: Decision, now = Date.now()): Record<string, string> {
  const fillSeconds = Math.ceil(rule.capacity / rule.refillPerSecond);
  const dailyLeft = Math.max(0, rule.dailyQuota - decision.used);
  const dailyReset = Math.max(0, decision.resetAt - Math.floor(now / 1000));
  const burst = { r: decision.tokens, t: Math.ceil((rule.capacity - decision.tokens) / rule.refillPerSecond) };
  const hasQuota = rule.dailyQuota > 0;
  const named =
    decision.refusedBy === "burst" || (decision.refusedBy === null && (!hasQuota || burst.r <= dailyLeft))
      ? `"burst";r=${decision.allowed ? burst.r : 0};t=${decision.allowed ? burst.t : decision.retryAfter}`
      : `"daily";r=${dailyLeft};t=${decision.allowed ? dailyReset : decision.retryAfter}`;
  return {
    "X-RateLimit-Limit": String(rule.dailyQuota),
    "X-RateLimit-Remaining": String(dailyLeft),
    "X-RateLimit-Reset": String(decision.resetAt),
    "RateLimit-Policy": [
      `"burst";q=${rule.capacity};w=${fillSeconds}`,
      ...(hasQuota ? [`"daily";q=${rule.dailyQuota};w=86400`] : []),
    ].join(", "),
    RateLimit: named,
  };
}
