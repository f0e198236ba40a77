// Password reset (contract: "Accounts for real"): no enumeration, single-use hashed tokens of
// 1 hour, the sign-up rules for the new password, and every session of the account ended.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { hashToken } from "../../server/accounts/accountTokens";
import { entries, freshEmail, mailedToken, mutate, refusal } from "../accounts";
import { logIn, makeUser, TEST_PASSWORD } from "../helpers";
import { mailsTo } from "../mail-sink";

const RESET = /Reset your password/;

describe("password reset", () => {
  it("the same status and body for a known and an unknown address; a mail only to the known one", async () => {
    const user = await makeUser("pro");
    const unknown = freshEmail();
    // Warm the route first (a refused input spends no limit), so that neither timing holds its first load.
    assert.equal((await mutate("account.forgotPassword", { email: "x".repeat(400) })).status, 400);
    const started = performance.now();
    const known = await mutate("account.forgotPassword", { email: user.email });
    const knownMs = performance.now() - started;
    const other = await mutate("account.forgotPassword", { email: unknown });
    const unknownMs = performance.now() - started - knownMs;
    assert.equal(known.status, 200);
    assert.deepEqual([other.status, other.text], [known.status, known.text]);
    // The mail leaves after the answer: no SMTP conversation in the known address's time.
    assert.ok(
      Math.abs(knownMs - unknownMs) < 250,
      `known ${knownMs.toFixed(0)} ms, unknown ${unknownMs.toFixed(0)} ms`,
    );
    await mailedToken(user.email, RESET, "/reset-password");
    assert.equal((await mailsTo(unknown)).length, 0);
  });

  it("a reset link sets a new password once, ends the sessions taken before, and is stored only as a hash", async () => {
    const user = await makeUser("pro");
    const before = await logIn(user.email);
    assert.equal((await before.get("/profile")).status, 200);
    assert.equal((await mutate("account.forgotPassword", { email: user.email.toUpperCase() })).status, 200);
    const token = await mailedToken(user.email, RESET, "/reset-password");
    const stored = await db.accountToken.findFirstOrThrow({ where: { userId: user.id, purpose: "reset_password" } });
    assert.equal(stored.tokenHash, hashToken(token));
    assert.equal(stored.expiresAt.getTime() - stored.createdAt.getTime(), 3600 * 1000, "1 hour");

    // The sign-up rules.
    const short = await mutate("account.resetPassword", { token, password: "short" });
    assert.equal(short.status, 400);
    assert.equal(refusal(short), "The password must be at least 8 characters");

    const reset = await mutate("account.resetPassword", { token, password: "a-new-password-1" });
    assert.equal(reset.status, 200);
    const reused = await mutate("account.resetPassword", { token, password: "another-password-2" });
    assert.equal(reused.status, 400);
    assert.equal(refusal(reused), "This link has expired or was already used: ask for a new one");

    // The session cookie taken before the reset: its next page load goes to /login, its calls are unauthenticated.
    const profile = await before.get("/profile");
    assert.equal(profile.status, 307);
    assert.match(profile.headers.get("location") ?? "", /^\/login/);
    await assert.rejects(before.query("keys.personal"), /Log in first/);
    // The old password is gone, the new one works.
    await assert.rejects(logIn(user.email, TEST_PASSWORD), /CredentialsSignin/);
    const after = await logIn(user.email, "a-new-password-1");
    assert.equal((await after.get("/profile")).status, 200);

    const [entry] = await entries(user.id, "password.reset");
    assert.deepEqual([entry.actorId, entry.actorLabel, entry.target], [user.id, user.email, user.email]);
    assert.ok(
      !JSON.stringify(entry).includes("127.0.0.1") && !JSON.stringify(entry).includes(token),
      "no client address, no token",
    );
  });

  it("a newer reset retires the older links", async () => {
    const user = await makeUser("pro");
    await mutate("account.forgotPassword", { email: user.email });
    await mutate("account.forgotPassword", { email: user.email });
    const first = await mailedToken(user.email, RESET, "/reset-password", 1);
    const second = await mailedToken(user.email, RESET, "/reset-password", 2);
    assert.equal((await mutate("account.resetPassword", { token: second, password: "a-new-password-1" })).status, 200);
    assert.equal((await mutate("account.resetPassword", { token: first, password: "a-new-password-2" })).status, 400);
  });

  it("both actions refuse a foreign Origin", async () => {
    const user = await makeUser("pro");
    for (const [procedure, input] of [
      ["account.forgotPassword", { email: user.email }],
      ["account.resetPassword", { token: "A".repeat(43), password: "a-new-password-1" }],
    ] as const) {
      const foreign = await mutate(procedure, input, { origin: "https://evil.example" });
      assert.equal(foreign.status, 403, procedure);
      assert.deepEqual(JSON.parse(foreign.text), { error: { message: "Cross-site request refused" } });
    }
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await mailsTo(user.email)).length, 0, "no reset mail was sent");
  });
});
