// Mail through a real SMTP conversation, and email verification at sign-up (contract:
// "Accounts for real"): keys wait for a verified address.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { hashToken } from "../../server/accounts/accountTokens";
import { setTier } from "../../server/accounts/users";
import { timeOrderedId } from "../../server/platform/ids";
import { entries, freshEmail, mailedToken, mutate, refusal, signUp } from "../accounts";
import { BASE_URL, logIn, makeTeam } from "../helpers";
import { mailsTo, waitForMail } from "../mail-sink";

const VERIFY = /Verify your email address/;

describe("mail", () => {
  it("sign-up mails a verification link with text and HTML bodies, from APP_URL", async () => {
    const { email } = await signUp();
    const mail = await waitForMail(email, VERIFY);
    assert.match(mail.text ?? "", /Verify email address: http:\/\/\S+\/verify-email\?token=\w+/);
    assert.ok(
      typeof mail.html === "string" && mail.html.includes('<a href="') && mail.html.includes("/verify-email?token="),
      "an HTML body with the link",
    );
    const link = new URL(/https?:\/\/\S+\/verify-email\?token=\w+/.exec(mail.text ?? "")![0]);
    assert.equal(link.origin, new URL(BASE_URL).origin, "links start with APP_URL");
    assert.match(mail.from?.text ?? "", /@/);
  });

  it("a recipient the SMTP server refuses once (451) still gets the mail after the retry", async () => {
    const email = freshEmail("+refuse-once");
    await signUp({ email });
    const mail = await waitForMail(email, VERIFY, { timeoutMs: 20_000 });
    assert.ok(mail.text?.includes("/verify-email?token="));
    assert.equal((await mailsTo(email)).length, 1, "delivered once, after one refusal");
  });
});

describe("email verification", () => {
  it("keys wait for a verified address; the link verifies once; then a key is generated", async () => {
    const { email, password, user } = await signUp();
    await setTier(email, "pro");
    assert.equal(user.emailVerifiedAt, null);
    const page = await logIn(email, password);
    await assert.rejects(page("keys.generatePersonal"), /^Error: Verify your email address first$/);

    const token = await mailedToken(email, VERIFY, "/verify-email");
    // Only the token's SHA-256 is stored.
    const stored = await db.accountToken.findFirstOrThrow({ where: { userId: user.id, purpose: "verify_email" } });
    assert.equal(stored.tokenHash, hashToken(token));
    assert.ok(!JSON.stringify(stored).includes(token));
    const expires = stored.expiresAt.getTime() - stored.createdAt.getTime();
    assert.equal(expires, 24 * 3600 * 1000, "24 hours");

    const verified = await mutate("account.verifyEmail", { token });
    assert.equal(verified.status, 200);
    assert.deepEqual(verified.body.result?.data, { email });
    const again = await mutate("account.verifyEmail", { token });
    assert.equal(again.status, 400);
    assert.equal(refusal(again), "This link has expired or was already used: ask for a new one");

    const { key } = (await page("keys.generatePersonal")) as { key: string };
    assert.match(key, /^qrp_/);

    const [entry, ...more] = await entries(user.id, "email.verified");
    assert.equal(more.length, 0);
    assert.deepEqual([entry.actorId, entry.actorLabel, entry.target], [user.id, email, email]);
    assert.ok(!JSON.stringify(entry).includes("127.0.0.1"), "no client address");
  });

  it("a business key waits for a verified address too", async () => {
    const team = await makeTeam();
    const { email, password } = await signUp();
    await db.membership.create({
      data: {
        id: timeOrderedId("mem"),
        teamId: team.id,
        userId: (await db.user.findUniqueOrThrow({ where: { email } })).id,
        role: "writer",
      },
    });
    const page = await logIn(email, password);
    await assert.rejects(page("team.generateKey"), /^Error: Verify your email address first$/);
  });

  it("unknown tokens are refused like used ones", async () => {
    const reply = await mutate("account.verifyEmail", { token: "A".repeat(43) });
    assert.equal(reply.status, 400);
    assert.equal(refusal(reply), "This link has expired or was already used: ask for a new one");
  });

  it("resending is limited to 3 an hour per account, and each resent link works", async () => {
    const { email, password } = await signUp();
    const page = await logIn(email, password);
    for (let i = 0; i < 3; i++) assert.deepEqual(await page("account.resendVerification"), { sent: true });
    await assert.rejects(
      page("account.resendVerification"),
      /^Error: Too many verification mails: try again in \d+ minute\(s\)$/,
    );
    const token = await mailedToken(email, VERIFY, "/verify-email", 4);
    assert.equal((await mutate("account.verifyEmail", { token })).status, 200);
    await assert.rejects(page("account.resendVerification"), /^Error: Your email address is already verified$/);
  });

  it("a resend needs a session, and both actions refuse a foreign Origin", async () => {
    const { email, password } = await signUp();
    const page = await logIn(email, password);
    const token = await mailedToken(email, VERIFY, "/verify-email");
    for (const [procedure, input, cookie] of [
      ["account.verifyEmail", { token }, undefined],
      ["account.resendVerification", undefined, page.cookie()],
    ] as const) {
      const foreign = await mutate(procedure, input, { origin: "https://evil.example", cookie });
      assert.equal(foreign.status, 403, procedure);
      assert.deepEqual(JSON.parse(foreign.text), { error: { message: "Cross-site request refused" } });
      assert.equal(
        (await mutate(procedure, input, { origin: null, cookie })).status,
        403,
        `${procedure} without Origin`,
      );
    }
    // Nothing happened: the token still works.
    assert.equal((await mutate("account.verifyEmail", { token })).status, 200);
    assert.equal((await mutate("account.resendVerification")).status, 401);
  });
});
