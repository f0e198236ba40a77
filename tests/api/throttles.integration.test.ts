// The pages' own limits: failed log-ins per account, and key generation per account.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateKey, logIn, makeUser, revokeKey, TEST_PASSWORD } from "../helpers";

describe("limits on the pages", () => {
  it("after 5 failed log-ins an account is refused, even with the right password", async () => {
    const user = await makeUser("pro");
    for (let i = 0; i < 5; i++) await assert.rejects(logIn(user.email, "wrong-password-1"), /CredentialsSignin/);
    await assert.rejects(logIn(user.email, TEST_PASSWORD), /Too many failed log-ins: try again in \d+ minute/);
    // Another account from the same address still logs in (the address allows 20).
    const other = await makeUser("pro");
    await logIn(other.email);
  });

  it("an account generates at most 10 keys an hour", async () => {
    const user = await makeUser("pro");
    for (let i = 0; i < 10; i++) {
      const { summary } = await generateKey(user.id, "personal");
      assert.equal(await revokeKey(summary.id, user.id), true);
    }
    await assert.rejects(generateKey(user.id, "personal"), /Too many keys generated: try again in \d+ minute/);
  });
});
