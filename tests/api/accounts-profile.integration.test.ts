// /profile's account actions (contract: "Accounts for real"): change password (this browser
// stays, the others end), change email (confirmed from the new address, the old one told),
// log out everywhere; their limits, their Origin check and their activity entries.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { entries, freshEmail, mailedToken, mutate, refusal } from "../accounts";
import { BASE_URL, logIn, makeUser, TEST_PASSWORD } from "../helpers";
import { mailsTo, waitForMail } from "../mail-sink";

const CONFIRM = /Confirm your new email address/;

/** A cookie jar's Cookie header with the session cookie a reply set. */
function withSetCookie(cookie: string, setCookie: string[]): string {
  const jar = new Map(cookie.split("; ").map((c) => [c.slice(0, c.indexOf("=")), c.slice(c.indexOf("=") + 1)]));
  for (const line of setCookie) {
    const [pair] = line.split(";");
    jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

describe("change password", () => {
  it("needs the current password; ends the other sessions; this browser goes on with the cookie of the answer", async () => {
    const user = await makeUser("pro");
    const other = await logIn(user.email);
    const here = await logIn(user.email);

    const wrong = await mutate(
      "account.changePassword",
      { currentPassword: "not-my-password", newPassword: "a-new-password-1" },
      { cookie: here.cookie() },
    );
    assert.equal(wrong.status, 400);
    assert.equal(refusal(wrong), "Current password is wrong");
    const short = await mutate(
      "account.changePassword",
      { currentPassword: TEST_PASSWORD, newPassword: "short" },
      { cookie: here.cookie() },
    );
    assert.equal(refusal(short), "The password must be at least 8 characters");

    const changed = await fetch(`${BASE_URL}/api/trpc/account.changePassword`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE_URL, cookie: here.cookie() },
      body: JSON.stringify({ currentPassword: TEST_PASSWORD, newPassword: "a-new-password-1" }),
    });
    assert.equal(changed.status, 200);
    const renewed = withSetCookie(here.cookie(), changed.headers.getSetCookie());
    assert.notEqual(renewed, here.cookie(), "a new session cookie");
    assert.match(
      changed.headers.getSetCookie().join(),
      /session-token=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/,
    );

    // This browser, with the cookie of the answer: still logged in.
    const profile = await fetch(`${BASE_URL}/profile`, { headers: { cookie: renewed }, redirect: "manual" });
    assert.equal(profile.status, 200);
    // The other session, and this browser's old cookie: ended.
    for (const cookie of [other.cookie(), here.cookie()]) {
      const page = await fetch(`${BASE_URL}/profile`, { headers: { cookie }, redirect: "manual" });
      assert.equal(page.status, 307);
    }
    await assert.rejects(other.query("keys.personal"), /Log in first/);
    await logIn(user.email, "a-new-password-1");
    await waitForMail(user.email, /Your password was changed/);

    const [entry] = await entries(user.id, "password.changed");
    assert.deepEqual([entry.actorId, entry.actorLabel, entry.target], [user.id, user.email, user.email]);
    assert.ok(!JSON.stringify(entry).includes("127.0.0.1"));
  });

  it("5 wrong current passwords, then refused even with the right one", async () => {
    const user = await makeUser("pro");
    const page = await logIn(user.email);
    for (let i = 0; i < 5; i++)
      await assert.rejects(
        page("account.changePassword", { currentPassword: "wrong-password-1", newPassword: "a-new-password-1" }),
        /Current password is wrong/,
      );
    await assert.rejects(
      page("account.changePassword", { currentPassword: TEST_PASSWORD, newPassword: "a-new-password-1" }),
      /^Error: Too many wrong passwords: try again in \d+ minute\(s\)$/,
    );
  });
});

describe("change email", () => {
  it("the new address confirms once; the old one is told; the account moves", async () => {
    const user = await makeUser("pro");
    const page = await logIn(user.email);
    const next = freshEmail();
    assert.deepEqual(await page("account.changeEmail", { email: next.toUpperCase(), currentPassword: TEST_PASSWORD }), {
      sent: true,
    });
    // Nothing changes until the link is opened.
    assert.equal((await db.user.findUniqueOrThrow({ where: { id: user.id } })).email, user.email);
    const token = await mailedToken(next, CONFIRM, "/confirm-email");
    const stored = await db.accountToken.findFirstOrThrow({ where: { userId: user.id, purpose: "change_email" } });
    assert.equal(stored.email, next);

    const confirmed = await mutate("account.confirmEmail", { token });
    assert.equal(confirmed.status, 200);
    assert.deepEqual(confirmed.body.result?.data, { email: next });
    assert.equal(
      refusal(await mutate("account.confirmEmail", { token })),
      "This link has expired or was already used: ask for a new one",
    );
    const moved = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    assert.equal(moved.email, next);
    assert.ok(moved.emailVerifiedAt);
    const told = await waitForMail(user.email, /Your email address was changed/);
    assert.ok(told.text?.includes(next));
    await logIn(next);
    await assert.rejects(logIn(user.email), /CredentialsSignin/);

    const [entry] = await entries(user.id, "email.changed");
    assert.deepEqual([entry.actorId, entry.actorLabel, entry.target], [user.id, next, next]);
    assert.ok(!JSON.stringify(entry).includes("127.0.0.1"));
  });

  it("an address taken after the change was asked for is a conflict when confirmed", async () => {
    const [user, taken] = [await makeUser("pro"), await makeUser("pro")];
    const page = await logIn(user.email);
    const next = freshEmail();
    await page("account.changeEmail", { email: next, currentPassword: TEST_PASSWORD });
    const token = await mailedToken(next, CONFIRM, "/confirm-email");
    // Someone signs up with it meanwhile.
    await db.user.update({ where: { id: taken.id }, data: { email: next } });
    const late = await mutate("account.confirmEmail", { token });
    assert.equal(late.status, 409);
    assert.equal(refusal(late), "An account with this email already exists");
    assert.equal((await db.user.findUniqueOrThrow({ where: { id: user.id } })).email, user.email);
  });

  it("3 changes an hour per account", async () => {
    const user = await makeUser("pro");
    const page = await logIn(user.email);
    for (let i = 0; i < 3; i++)
      await page("account.changeEmail", { email: freshEmail(), currentPassword: TEST_PASSWORD });
    await assert.rejects(
      page("account.changeEmail", { email: freshEmail(), currentPassword: TEST_PASSWORD }),
      /^Error: Too many email changes: try again in \d+ minute\(s\)$/,
    );
  });
});

describe("log out everywhere", () => {
  it("ends every session of the account, this one too, and records it", async () => {
    const user = await makeUser("pro");
    const [a, b] = [await logIn(user.email), await logIn(user.email)];
    assert.deepEqual(await a("account.logOutEverywhere"), { ended: true });
    for (const page of [a, b]) {
      assert.equal((await page.get("/profile")).status, 307);
      await assert.rejects(page.query("keys.personal"), /Log in first/);
    }
    // A new log-in works at once.
    assert.equal((await (await logIn(user.email)).get("/profile")).status, 200);
    const [entry] = await entries(user.id, "sessions.ended");
    assert.deepEqual([entry.actorId, entry.actorLabel, entry.target], [user.id, user.email, user.email]);
    assert.ok(!JSON.stringify(entry).includes("127.0.0.1"));
  });
});

describe("the profile actions", () => {
  it("refuse a foreign Origin and calls without a session", async () => {
    const user = await makeUser("pro");
    const page = await logIn(user.email);
    const calls = [
      ["account.changePassword", { currentPassword: TEST_PASSWORD, newPassword: "a-new-password-1" }],
      ["account.changeEmail", { email: freshEmail(), currentPassword: TEST_PASSWORD }],
      ["account.confirmEmail", { token: "A".repeat(43) }],
      ["account.undoEmailChange", { token: "A".repeat(43) }],
      ["account.logOutEverywhere", undefined],
    ] as const;
    for (const [procedure, input] of calls) {
      const foreign = await mutate(procedure, input, { origin: "https://evil.example", cookie: page.cookie() });
      assert.equal(foreign.status, 403, procedure);
      assert.deepEqual(JSON.parse(foreign.text), { error: { message: "Cross-site request refused" } });
      if (!/confirmEmail|undoEmailChange/.test(procedure))
        assert.equal((await mutate(procedure, input)).status, 401, `${procedure} without a session`);
    }
    // Nothing happened: the session lives, the password is the same.
    assert.equal((await page.get("/profile")).status, 200);
    await logIn(user.email);
    assert.equal((await mailsTo(user.email)).length, 0);
  });
});
