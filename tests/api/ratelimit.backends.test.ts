// Rate limits on the main server, with whichever store it runs on (in process on the SQLite
// pass, CI's Redis on the PostgreSQL pass): the token buckets per key scope, the headers.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keyRule } from "../../server/rate-limit";
import { BASE_URL, http, makeTeam, personalKey, prepareBurst } from "../helpers";

/** n GET /v1/qrcodes at once with one key (see `prepareBurst`); `fire()` sends them. */
const burstOf = async (key: string, n: number) => {
  const prepared = await prepareBurst(
    Array.from({ length: n }, () => ({ url: `${BASE_URL}/v1/qrcodes`, headers: { "x-api-key": key } })),
  );
  return async () =>
    (await prepared.fire()).map((r) => ({
      status: r.status,
      header: (name: string) => r.headers[name] as string | undefined,
      body: JSON.parse(r.body) as unknown,
    }));
};
const count = (replies: { status: number }[], status: number) => replies.filter((r) => r.status === status).length;

/**
 * A burst fired and timed. The bucket refills while the server answers it: on a quiet machine a
 * burst takes a few milliseconds and the passes are exact; on a busy one (the two CI runs at
 * once on two cores) the last requests can be checked hundreds of milliseconds after the first,
 * and `refilled(ms)` says how many tokens the rule adds in that time.
 */
async function timed(
  fire: () => Promise<{ status: number; header: (name: string) => string | undefined; body: unknown }[]>,
) {
  const started = Date.now();
  const replies = await fire();
  return { replies, ms: Date.now() - started };
}
const refilled = (scope: "personal" | "business", ms: number) =>
  Math.floor((ms / 1000) * keyRule(scope).refillPerSecond);
/** Between `least` and `most` replies of `status`, with the counts in the message. */
function between(replies: { status: number }[], least: number, most: number, what: string) {
  const ok = count(replies, 200);
  assert.ok(
    ok >= least && ok <= most,
    `${what}: ${ok} passed, expected ${least === most ? least : `${least} to ${most}`}`,
  );
  assert.equal(count(replies, 429), replies.length - ok);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("rate limits", () => {
  it("personal: 30 at once → exactly 10 pass; 1 s later exactly 5 more", async () => {
    const { key } = await personalKey();
    const [firstBurst, secondBurst] = [await burstOf(key, 30), await burstOf(key, 10)];
    const sentAt = Date.now();
    const { replies: first, ms } = await timed(firstBurst);
    between(first, 10, 10 + refilled("personal", ms), `30 at once, answered in ${ms} ms`);
    const refused = first.find((r) => r.status === 429)!;
    assert.deepEqual(refused.body, { error: "Rate limit exceeded" });
    assert.equal(refused.header("retry-after"), "1");
    // "After 1 s": 1.1 s after the first burst was sent (not after its answers came back), the
    // middle of the window [1.0 s, 1.2 s) after its last token in which exactly 5 have refilled,
    // so that a few milliseconds either way on a busy machine change nothing.
    await sleep(sentAt + 1100 - Date.now());
    const { replies: second, ms: secondMs } = await timed(secondBurst);
    // Fewer when the first burst's last tokens were taken late; more when this one is sent late
    // (the first took longer than 1.1 s) or answered slowly: both bursts together never pass
    // more than the bucket held plus what refilled from the first request to the last answer.
    const sinceFirst = Date.now() - sentAt;
    between(
      second,
      5 - Math.ceil((ms / 1000) * keyRule("personal").refillPerSecond),
      Math.max(5, 10 + refilled("personal", sinceFirst) - count(first, 200)),
      `10 more ${sinceFirst - secondMs} ms after the first burst was sent, answered in ${secondMs} ms`,
    );
  });

  it("business: 50 at once → exactly 20 pass", async () => {
    const team = await makeTeam();
    const { replies, ms } = await timed(await burstOf(team.adminKey, 50));
    between(replies, 20, 20 + refilled("business", ms), `50 at once, answered in ${ms} ms`);
  });

  it("every authenticated response carries the daily quota's headers", async () => {
    const { key } = await personalKey();
    const midnight = Math.ceil((Date.now() + 1) / 86_400_000) * 86_400;
    const quota = keyRule("personal").dailyQuota; // the server runs with the same configuration
    const ok = await http("GET", "/v1/qrcodes", { key, paced: false });
    const missing = await http("DELETE", "/v1/qrcodes/qr_nope", { key, paced: false });
    const invalid = await http("POST", "/v1/qrcodes", { key, paced: false, json: { url: "ftp://x", name: "x" } });
    assert.deepEqual([ok.status, missing.status, invalid.status], [200, 404, 400]);
    [ok, missing, invalid].forEach((r, i) => {
      assert.equal(r.headers.get("x-ratelimit-limit"), String(quota));
      assert.equal(r.headers.get("x-ratelimit-remaining"), String(quota - 1 - i));
      assert.equal(r.headers.get("x-ratelimit-reset"), String(midnight));
    });
    const refused = (await (await burstOf(key, 15))()).find((r) => r.status === 429)!;
    assert.equal(refused.header("x-ratelimit-limit"), String(quota));
    assert.ok(Number(refused.header("x-ratelimit-remaining")) >= quota - 13);
    // No key: not authenticated, so no quota headers.
    assert.equal((await http("GET", "/v1/qrcodes")).headers.get("x-ratelimit-limit"), null);
  });
});
