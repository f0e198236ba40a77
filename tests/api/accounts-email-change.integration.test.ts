// Moving an account to another address (issue 37, point 8): the password is asked again (and
// the authentication code when two-factor is on), a taken address is answered as a free one,
// and the old address gets a link that undoes the change and gives its owner control back.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { hashToken } from "../../server/accounts/accountTokens";
import { codeOf, entries, freshEmail, mailedToken, mutate, refusal, withTwoFactor, wrongCodeOf } from "../accounts";
import { logIn, makeUser, TEST_PASSWORD } from "../helpers";
import { linkIn, mailsTo, waitForMail } from "../mail-sink";

const CONFIRM = /Confirm your new email address/;
const CHANGED = /Your email address was changed/;
const EXPIRED = "This link has expired or was already used: ask for a new one";

const tokensOf = (userId: string) => db.accountToken.findMany({ where: { userId, purpose: "change_email" } });

/** Moves `user` to a fresh address through the confirmation link; returns it and the old address's notice. */
async function moved(user: { id: string; email: string }, page: Awaited<ReturnType<typeof logIn>>) {
  const next = freshEmail();
  await page("account.changeEmail", { email: next, currentPassword: TEST_PASSWORD });
  assert.equal(
    (await mutate("account.confirmEmail", { token: await mailedToken(next, CONFIRM, "/confirm-email") })).status,
    200,
  );
  return { next, notice: await waitForMail(user.email, CHANGED) };
}

describe("email change asks who you are", () => {
  it("without the current password, or with a wrong one: refused, nothing sent or stored", async () => {
    const user = await makeUser("pro");
    const page = await logIn(user.email);
    const next = freshEmail();
    const missing = await mutate("account.changeEmail", { email: next }, { cookie: page.cookie() });
    assert.equal(missing.status, 400);
    const empty = await mutate("account.changeEmail", { email: next, currentPassword: "" }, { cookie: page.cookie() });
    assert.equal(refusal(empty), "Enter your current password");
    const wrong = await mutate(
      "account.changeEmail",
      { email: next, currentPassword: "not-my-password" },
      { cookie: page.cookie() },
    );
    assert.equal(wrong.status, 400);
    assert.equal(refusal(wrong), "Current password is wrong");
    assert.deepEqual(await tokensOf(user.id), []);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await mailsTo(next)).length, 0);
  });

  it("wrong passwords count: after 5, refused even with the right one", async () => {
    const user = await makeUser("pro");
    const page = await logIn(user.email);
    for (let i = 0; i < 5; i++)
      await assert.rejects(
        page("account.changeEmail", { email: freshEmail(), currentPassword: "wrong-password-1" }),
        /Current password is wrong/,
      );
    await assert.rejects(
      page("account.changeEmail", { email: freshEmail(), currentPassword: TEST_PASSWORD }),
      /^Error: Too many wrong passwords: try again in \d+ minute\(s\)$/,
    );
  });

  it("with two-factor on, the authentication code too", async () => {
    const { user, session, secret, recoveryCodes } = await withTwoFactor();
    const next = freshEmail();
    await assert.rejects(
      session("account.changeEmail", { email: next, currentPassword: TEST_PASSWORD }),
      /^Error: Enter your authentication code$/,
    );
    await assert.rejects(
      session("account.changeEmail", { email: next, currentPassword: TEST_PASSWORD, code: await wrongCodeOf(secret) }),
      /^Error: Authentication code is not valid$/,
    );
    await assert.rejects(
      session("account.changeEmail", { email: next, currentPassword: "not-my-password", code: recoveryCodes[0] }),
      /^Error: Current password is wrong$/,
    );
    assert.deepEqual(await tokensOf(user.id), []);
    assert.deepEqual(
      await session("account.changeEmail", { email: next, currentPassword: TEST_PASSWORD, code: recoveryCodes[0] }),
      { sent: true },
    );
    await waitForMail(next, CONFIRM);
  });
});

describe("email change to an address that has an account", () => {
  it("answers as for a free address; the owner is told; nothing changes", async () => {
    const [user, taken] = [await makeUser("pro"), await makeUser("pro")];
    const page = await logIn(user.email);
    const free = freshEmail();
    const ask = (email: string) =>
      mutate("account.changeEmail", { email, currentPassword: TEST_PASSWORD }, { cookie: page.cookie() });
    const [toTaken, toFree] = [await ask(taken.email), await ask(free)];
    assert.deepEqual([toTaken.status, toTaken.text], [toFree.status, toFree.text]);
    assert.deepEqual(toTaken.body.result?.data, { sent: true });

    const notice = await waitForMail(taken.email, /Someone tried to use your email address/);
    assert.match(notice.text ?? "", /move another QR Records account/);
    assert.ok(!(notice.text ?? "").includes(user.email), "the notice does not name the other account");
    await waitForMail(free, CONFIRM);
    assert.equal(
      (await mailsTo(taken.email)).filter((m) => CONFIRM.test(m.subject ?? "")).length,
      0,
      "no confirmation link to the taken address",
    );
    assert.deepEqual(
      (await tokensOf(user.id)).map((t) => t.email),
      [free],
    );
    assert.equal((await db.user.findUniqueOrThrow({ where: { id: user.id } })).email, user.email);
    assert.equal((await db.user.findUniqueOrThrow({ where: { id: taken.id } })).email, taken.email);
    assert.deepEqual(
      (await entries(user.id, "email.change_requested")).map((e) => e.target),
      [taken.email, free],
    );
    const [claimed] = await entries(taken.id, "email.claim_attempted");
    assert.deepEqual(JSON.parse(claimed.detail ?? "{}"), { via: "email_change" });
  });
});

describe("undoing an email change from the old address", () => {
  it("the notice's link brings the account back, ends every session, retires the password and mails a reset link; once", async () => {
    const user = await makeUser("pro");
    const page = await logIn(user.email);
    const { next, notice } = await moved(user, page);
    const taker = await logIn(next);
    assert.ok(
      !(notice.text ?? "").includes("from the new address"),
      "never sends the victim to the address the taker holds",
    );
    assert.match(notice.text ?? "", /7 days/);
    const link = linkIn(notice, "/undo-email-change");
    const token = link.searchParams.get("token")!;
    // Stored only as a hash, for 7 days.
    const stored = await db.accountToken.findFirstOrThrow({ where: { userId: user.id, purpose: "undo_email_change" } });
    assert.equal(stored.tokenHash, hashToken(token));
    assert.ok(!JSON.stringify(stored).includes(token));
    assert.equal(stored.email, user.email);
    assert.equal(Math.round((stored.expiresAt.getTime() - stored.createdAt.getTime()) / 3600_000), 7 * 24);
    assert.equal((await fetch(link)).status, 200, "the link's page opens");

    const undone = await mutate("account.undoEmailChange", { token });
    assert.equal(undone.status, 200);
    assert.deepEqual(undone.body.result?.data, { email: user.email });
    assert.equal(refusal(await mutate("account.undoEmailChange", { token })), EXPIRED);

    const after = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    assert.equal(after.email, user.email);
    for (const session of [page, taker])
      assert.equal((await session.get("/profile")).status, 307, "every session ended");
    await assert.rejects(
      logIn(user.email, TEST_PASSWORD),
      /CredentialsSignin/,
      "the password the taker knew no longer works",
    );
    await assert.rejects(logIn(next, TEST_PASSWORD), /CredentialsSignin/);

    const reset = await mailedToken(user.email, /Reset your password/, "/reset-password");
    assert.equal((await mutate("account.resetPassword", { token: reset, password: "my-own-again-1" })).status, 200);
    await logIn(user.email, "my-own-again-1");
    const [entry] = await entries(user.id, "email.change_undone");
    assert.deepEqual(
      [entry.actorId, entry.target, JSON.parse(entry.detail ?? "{}")],
      [user.id, user.email, { from: next, two_factor_turned_off: false }],
    );
  });

  it("what the taker set up since is undone too: their two-factor, their reset and change links", async () => {
    const user = await makeUser("pro");
    const page = await logIn(user.email);
    const { next, notice } = await moved(user, page);
    const taker = await logIn(next);
    const setup = (await taker("twoFactor.start")) as { secret: string };
    const { recoveryCodes } = (await taker("twoFactor.confirm", { code: await codeOf(setup.secret) })) as {
      recoveryCodes: string[];
    };
    await mutate("account.forgotPassword", { email: next });
    const takersReset = await mailedToken(next, /Reset your password/, "/reset-password");
    const third = freshEmail();
    await taker("account.changeEmail", { email: third, currentPassword: TEST_PASSWORD, code: recoveryCodes[0] });
    const takersChange = await mailedToken(third, CONFIRM, "/confirm-email");

    assert.equal(
      (
        await mutate("account.undoEmailChange", {
          token: linkIn(notice, "/undo-email-change").searchParams.get("token")!,
        })
      ).status,
      200,
    );
    const after = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    assert.deepEqual([after.email, after.totpEnabledAt, after.totpSecret], [user.email, null, null]);
    assert.equal(await db.recoveryCode.count({ where: { userId: user.id } }), 0);
    assert.equal(
      refusal(await mutate("account.resetPassword", { token: takersReset, password: "takers-password-1" })),
      EXPIRED,
    );
    assert.equal(refusal(await mutate("account.confirmEmail", { token: takersChange })), EXPIRED);
    // The owner sets a password from the restored address and logs in without a code.
    const reset = await mailedToken(user.email, /Reset your password/, "/reset-password");
    assert.equal((await mutate("account.resetPassword", { token: reset, password: "my-own-again-1" })).status, 200);
    await logIn(user.email, "my-own-again-1");
  });
});
