// Secrets and logs: a server refuses to start with a weak or missing secret, or any invalid
// configuration value; whatever it
// logs (here with its Redis unreachable, so that it logs on every request) never holds an
// API key or a password that it was sent.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { freePort, startServer, type RunningServer } from "../../scripts/harness";
import { BASE_URL, generateKey, logIn, makeUser, personalKey, revokeKey, TEST_PASSWORD } from "../helpers";

describe("secrets", () => {
  for (const [name, env, reason] of [
    [
      "a placeholder session secret",
      { NEXTAUTH_SECRET: "changeme-2024-changeme-2025-changeme-2026" },
      'NEXTAUTH_SECRET is a known placeholder ("changeme")',
    ],
    [
      "a short visitor-hash secret",
      { VISITOR_HASH_SECRET: "too-short" },
      "VISITOR_HASH_SECRET must be at least 32 characters",
    ],
    ["a repetitive session secret", { NEXTAUTH_SECRET: "ab".repeat(20) }, "NEXTAUTH_SECRET is too repetitive"],
    [
      "a daily quota that is not a number",
      { RATE_LIMIT_PERSONAL_DAILY_QUOTA: "lots" },
      "RATE_LIMIT_PERSONAL_DAILY_QUOTA must be a positive number",
    ],
    [
      "a Redis URL of another scheme",
      { REDIS_URL: "http://127.0.0.1:6379" },
      "REDIS_URL must start with redis:// or rediss://",
    ],
    [
      "no SMTP server in production",
      { SMTP_URL: "", MAIL_OUTBOX: "" },
      "SMTP_URL is required with NODE_ENV=production (or MAIL_OUTBOX=1 to write mails to data/outbox/ instead)",
    ],
    [
      "no visitor-hash secret outside the embedded database",
      { DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none", VISITOR_HASH_SECRET: "" },
      "VISITOR_HASH_SECRET must be set when DATABASE_URL is not the embedded SQLite database",
    ],
  ] as const) {
    it(`the server refuses to start with ${name}`, async () => {
      await assert.rejects(startServer(env, await freePort()), (error: Error) => {
        assert.ok(error.message.includes(`Refusing to start: ${reason}`), error.message);
        return true;
      });
    });
  }
});

describe("logs", () => {
  let server: RunningServer;
  before(async () => {
    // Redis unreachable: the server logs its fallback, so the log is not empty.
    server = await startServer({ REDIS_URL: `redis://127.0.0.1:${await freePort()}`, REDIS_KEY_PREFIX: "qr:logs:" });
  });
  after(() => server.stop());

  it("never hold the keys or passwords the server was sent", async () => {
    const { user, key } = await personalKey();
    const revoked = await generateKey((await makeUser("pro")).id, "personal");
    await revokeKey(revoked.summary.id, user.id);
    const guessed = `qrp_${"Z".repeat(40)}`;
    const wrongPassword = "wrong-password-that-must-not-be-logged-7";
    const secrets = [key, revoked.key, guessed, wrongPassword, TEST_PASSWORD];
    const statuses: number[] = [];
    for (const presented of [key, revoked.key, guessed, `${key}x`]) {
      for (const [method, path, body] of [
        ["GET", "/v1/qrcodes"],
        ["POST", "/v1/qrcodes", '{"url":"https://example.com/l","name":"L"}'],
        ["PATCH", "/v1/dynqrcodes/nope", "{broken"],
      ] as const) {
        const res = await fetch(server.base + path, {
          method,
          headers: { "x-api-key": presented, "content-type": "application/json" },
          body,
        });
        statuses.push(res.status);
        await res.arrayBuffer();
        await new Promise((r) => setTimeout(r, 220));
      }
    }
    assert.ok(statuses.includes(201) && statuses.includes(401) && statuses.includes(400), statuses.join());
    await assert.rejects(logIn(user.email, wrongPassword, server.base), /log-in failed/);
    await logIn(user.email, TEST_PASSWORD, server.base);
    // The main server's requests are not part of this log.
    assert.ok(!server.base.startsWith(BASE_URL));
    const log = server.output();
    assert.ok(log.includes("redis.unavailable"), "the server logged something");
    for (const value of secrets) assert.ok(!log.includes(value), `the log holds a secret: ${value.slice(0, 6)}…`);
    // Nor a key's tail.
    assert.ok(!log.includes(key.slice(-12)));
  });
});
