// Dynamic codes' rules on several instances sharing a database and a Redis: an expiry takes
// effect on time on every instance with no change made (the cached resolution carries
// expires_at), a server started an hour ahead (CLOCK_OFFSET_SECONDS) already sees the code as
// expired, and the wrong passwords of one code and address are counted across instances.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/harness";
import { UA } from "../agents";
import { personalKey, withPair } from "../helpers";

describe("rules on two instances, one Redis", () => {
  const pair = withPair();
  let ahead: RunningServer;
  before(async () => {
    ahead = await startServer({
      REDIS_URL: pair.redis.url,
      CLOCK_OFFSET_SECONDS: "3600",
      LOG_LEVEL: "debug",
      LOG_SHORT_LINKS: "1",
    });
  });
  after(() => ahead.stop());

  const scanOn = async (server: RunningServer, code: string) => {
    const r = await fetch(`${server.base}/q/${code}`, { redirect: "manual", headers: { "user-agent": UA.iphone } });
    return r.status === 302 ? r.headers.get("location") : r.status;
  };
  const createOn = async (server: RunningServer, key: string, rules: object) => {
    const r = await fetch(`${server.base}/v1/dynqrcodes`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ destination_url: "https://example.com/live", name: "Expiring", ...rules }),
    });
    assert.equal(r.status, 201, await r.clone().text());
    return ((await r.json()) as { created: { code: string }[] }).created[0].code;
  };

  it("expires_at a second ahead: 302 on both instances, then 410 (or expired_url) with no write in between", async () => {
    const { key } = await personalKey();
    // Seconds are the record's unit: the expiry lands 1 to 2 s from now.
    const expiresAt = Math.floor(Date.now() / 1000) + 2;
    const [plain, redirected] = [
      await createOn(pair.a, key, { expires_at: expiresAt }),
      await createOn(pair.a, key, { expires_at: expiresAt, expired_url: "https://example.com/over" }),
    ];
    // Both instances cache both codes while they are live (B waits for its subscription first).
    const deadline = Date.now() + 5000;
    while ((await scanOn(pair.b, plain)) !== "https://example.com/live" && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    for (const server of [pair.a, pair.b])
      for (const code of [plain, redirected]) assert.equal(await scanOn(server, code), "https://example.com/live");
    // The server an hour ahead already sees them expired.
    assert.equal(await scanOn(ahead, plain), 410);
    assert.equal(await scanOn(ahead, redirected), "https://example.com/over");
    // The one wait of this file: until the expiry has passed on the real clock.
    await new Promise((r) => setTimeout(r, expiresAt * 1000 - Date.now() + 50));
    for (const server of [pair.a, pair.b]) {
      assert.equal(await scanOn(server, plain), 410);
      assert.equal(await scanOn(server, redirected), "https://example.com/over");
    }
  });

  it("wrong passwords count across instances: the 11th, on either, is 429; the password is in no log", async () => {
    const { key } = await personalKey();
    const password = "staff-room-4471";
    const code = await createOn(pair.a, key, { password });
    const post = (server: RunningServer, guess: string) =>
      fetch(`${server.base}/q/${code}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": UA.android },
        body: new URLSearchParams({ password: guess }),
      });
    for (let i = 1; i <= 10; i++)
      assert.equal((await post(i % 2 ? pair.a : pair.b, `guess-${i}`)).status, 401, `try ${i}`);
    const refused = await post(pair.b, "guess-11");
    assert.equal(refused.status, 429);
    assert.match(await refused.text(), /Try again in/);
    assert.equal((await post(pair.a, password)).status, 429);
    assert.equal((await post(ahead, password)).status, 429, "the third instance counts the same tries");
    for (const server of [pair.a, pair.b, ahead])
      assert.ok(!server.output().includes(password) && !server.output().includes("guess-"), server.base);
  });
});
