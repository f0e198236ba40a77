// What one caller does to an account never locks out its owner (issue 37, points 5 and 8),
// on a server behind a pretend proxy (TRUST_PROXY=1: each test picks its client addresses
// with X-Forwarded-For): failed log-ins lock the pair of account and address, and only brake
// the account; sign-ups are limited per address, taken addresses counted as free ones. And an
// email change's undo link lives 7 days, seen by a server whose clock runs a week ahead.
import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { freePort, startServer, type RunningServer } from "../../scripts/harness";
import { env } from "../../server/platform/env";
import { LOGIN_BRAKE_MS } from "../../server/rate-limit";
import { freshEmail, mailedToken, mutate, refusal, withTwoFactor, wrongCodeOf } from "../accounts";
import { logIn, makeUser, TEST_PASSWORD } from "../helpers";
import { linkIn, waitForMail } from "../mail-sink";

/** A client address no other test uses. */
const anAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const from = (address: string) => ({ headers: { "x-forwarded-for": address } });

describe("behind a trusted proxy", () => {
  let server: RunningServer;
  before(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = await startServer({ TRUST_PROXY: "1", APP_URL: base, NEXTAUTH_URL: base }, port);
  });
  after(() => server.stop());

  const attempt = (email: string, password: string, address: string) =>
    logIn(email, password, server.base, from(address));

  it("5 wrong passwords from one address lock that address out of the account, never its owner on another", async () => {
    const user = await makeUser("pro");
    const [guesser, owner] = [anAddress(), anAddress()];
    for (let i = 0; i < 5; i++)
      await assert.rejects(attempt(user.email, "wrong-password-1", guesser), /CredentialsSignin/);
    await assert.rejects(
      attempt(user.email, TEST_PASSWORD, guesser),
      /Too many failed log-ins: try again in \d+ minute/,
    );
    const page = await attempt(user.email, TEST_PASSWORD, owner);
    assert.equal((await page.get("/profile")).status, 200);
    // The guesser's address still reaches other accounts (it allows 20 failures in all).
    const other = await makeUser("pro");
    await attempt(other.email, TEST_PASSWORD, guesser);
  });

  it("wrong authentication codes count for the pair too", async () => {
    const { user, secret, recoveryCodes } = await withTwoFactor();
    const guesser = anAddress();
    const wrong = await wrongCodeOf(secret);
    for (let i = 0; i < 5; i++)
      await assert.rejects(
        logIn(user.email, TEST_PASSWORD, server.base, { code: wrong, ...from(guesser) }),
        /Wrong authentication code/,
      );
    await assert.rejects(
      logIn(user.email, TEST_PASSWORD, server.base, { code: recoveryCodes[0], ...from(guesser) }),
      /Too many failed log-ins/,
    );
    await logIn(user.email, TEST_PASSWORD, server.base, { code: recoveryCodes[0], ...from(anAddress()) });
  });

  it("failures from many addresses only brake the account: the right password from a new address gets in", async () => {
    const user = await makeUser("pro");
    // 12 failures from 3 addresses: past the brake's 10, each pair short of its lock.
    for (const address of [anAddress(), anAddress(), anAddress()]) {
      for (let i = 0; i < 4; i++)
        await assert.rejects(attempt(user.email, "wrong-password-1", address), /CredentialsSignin/);
    }
    const started = performance.now();
    const page = await attempt(user.email, TEST_PASSWORD, anAddress());
    assert.ok(performance.now() - started >= LOGIN_BRAKE_MS, "the brake slowed the attempt");
    assert.equal((await page.get("/profile")).status, 200);
  });

  it(`sign-ups: ${env.signupPerHour} an hour per client address, taken addresses counted as new ones`, async () => {
    const [address, another] = [anAddress(), anAddress()];
    const owner = await makeUser("pro");
    const signUp = (email: string, at: string) =>
      mutate("account.signup", { email, password: "a-password-1", name: "Many" }, { base: server.base, ...from(at) });
    for (let i = 0; i < env.signupPerHour; i++) {
      const reply = await signUp(i % 3 === 0 ? owner.email : freshEmail(), address);
      assert.equal(reply.status, 200, reply.text);
    }
    for (const email of [freshEmail(), owner.email]) {
      const refused = await signUp(email, address);
      assert.equal(refused.status, 429);
      assert.match(refusal(refused), /^Too many sign-ups: try again in \d+ minute\(s\)$/);
    }
    assert.equal((await signUp(freshEmail(), another)).status, 200, "another address signs up");
  });
});

describe("an email change's undo link, on a server a week ahead", () => {
  let weekLater: RunningServer;
  before(async () => {
    weekLater = await startServer({ CLOCK_OFFSET_SECONDS: String(7 * 24 * 3600 + 100) });
  });
  after(() => weekLater.stop());

  it("is refused after 7 days, and not spent by the refusal", async () => {
    const user = await makeUser("pro");
    const next = freshEmail();
    await (
      await logIn(user.email)
    )("account.changeEmail", { email: next, currentPassword: TEST_PASSWORD });
    await mutate("account.confirmEmail", {
      token: await mailedToken(next, /Confirm your new email address/, "/confirm-email"),
    });
    const token = linkIn(
      await waitForMail(user.email, /Your email address was changed/),
      "/undo-email-change",
    ).searchParams.get("token")!;
    const late = await mutate("account.undoEmailChange", { token }, { base: weekLater.base });
    assert.equal(late.status, 400);
    assert.equal(refusal(late), "This link has expired or was already used: ask for a new one");
    assert.equal((await mutate("account.undoEmailChange", { token })).status, 200, "on time, it works");
  });
});
