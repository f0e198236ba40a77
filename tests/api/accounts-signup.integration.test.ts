// Sign-up tells no one whether an address has an account (issue 37, point 5): a taken address
// gets the answer a free one gets, its owner a mail instead, and nothing changes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { entries, freshEmail, mutate } from "../accounts";
import { logIn, makeUser, TEST_PASSWORD } from "../helpers";
import { mailsTo, waitForMail } from "../mail-sink";

const NOTICE = /Someone tried to use your email address/;

describe("sign-up with an address that has an account", () => {
  it("answers as for a new address; the owner gets a notice; the account is untouched", async () => {
    const owner = await makeUser("pro");
    const before = await db.user.findUniqueOrThrow({ where: { id: owner.id } });
    const fresh = freshEmail();
    const input = (email: string) => ({ email, password: "someone-elses-password", name: "Mallory" });

    const [taken, free] = [
      await mutate("account.signup", input(owner.email.toUpperCase())),
      await mutate("account.signup", input(fresh)),
    ];
    assert.equal(taken.status, free.status);
    assert.equal(taken.status, 200);
    // The same body but for the address typed.
    assert.equal(taken.text.replace(owner.email, "<email>"), free.text.replace(fresh, "<email>"));
    assert.deepEqual(taken.body.result?.data, { email: owner.email });

    const notice = await waitForMail(owner.email, NOTICE);
    assert.match(notice.text ?? "", /sign up|create a new QR Records account/);
    assert.match(notice.text ?? "", /\/forgot-password/);
    assert.match(notice.text ?? "", /Log in: http:\/\/\S+\/login/);
    // The new address got its verification mail, the owner no verification mail.
    await waitForMail(fresh, /Verify your email address/);
    assert.equal((await mailsTo(owner.email)).filter((m) => /Verify/.test(m.subject ?? "")).length, 0);

    const after = await db.user.findUniqueOrThrow({ where: { id: owner.id } });
    assert.deepEqual(after, before, "the account did not change");
    assert.equal(await db.user.count({ where: { email: owner.email } }), 1);
    await assert.rejects(logIn(owner.email, "someone-elses-password"), /CredentialsSignin/);
    await logIn(owner.email, TEST_PASSWORD);
    const [entry] = await entries(owner.id, "email.claim_attempted");
    assert.deepEqual(
      [entry.actorId, entry.target, JSON.parse(entry.detail ?? "{}")],
      [null, owner.email, { via: "signup" }],
    );
  });

  it("notices to one address stop after 3 an hour; the answer stays the same", async () => {
    const owner = await makeUser("pro");
    for (let i = 0; i < 4; i++) {
      const reply = await mutate("account.signup", {
        email: owner.email,
        password: "someone-elses-password",
        name: "Mallory",
      });
      assert.equal(reply.status, 200);
    }
    await waitForMail(owner.email, NOTICE, { nth: 3 });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await mailsTo(owner.email)).filter((m) => NOTICE.test(m.subject ?? "")).length, 3);
  });
});
