// Two-factor authentication (contract: "Accounts for real"): enabling on /profile's calls,
// log-in through next-auth's credentials flow with a code of the app (computed here from the
// secret the enable call returned) or a recovery code, the log-in limits, disabling with the
// password, and the Origin check on each new action.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { renderSvg } from "../../server/images/qrImage";
import { codeOf, wrongCodeOf, withTwoFactor, type Setup } from "../accounts";
import { BASE_URL, logIn, makeUser, TEST_PASSWORD } from "../helpers";

const actionsOf = async (userId: string) =>
  (await db.activityEntry.findMany({ where: { userId }, orderBy: { id: "asc" } })).map((e) => e.action);

describe("two-factor authentication", () => {
  it("enabling shows the secret as text and as our QR code of an otpauth:// address, and takes a code of it", async () => {
    const user = await makeUser("pro");
    const session = await logIn(user.email);
    assert.deepEqual(await session.query("twoFactor.status"), { enabled: false, recoveryCodesLeft: 0 });
    const setup = (await session("twoFactor.start")) as Setup;
    assert.match(setup.secret, /^[A-Z2-7]{32,}$/);
    assert.equal(
      setup.uri,
      `otpauth://totp/QR%20Records:${encodeURIComponent(user.email)}?secret=${setup.secret}&issuer=QR%20Records`,
    );
    assert.equal(setup.qrSvg, await renderSvg(setup.uri, {}, 240), "drawn by server/images/qrImage");
    // Stored sealed (AES-256-GCM), never as it is; not on until confirmed.
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    assert.ok(stored.totpSecret && !stored.totpSecret.includes(setup.secret), "the secret is stored encrypted");
    assert.equal(stored.totpEnabledAt, null);
    await logIn(user.email); // no code asked yet

    await assert.rejects(
      session("twoFactor.confirm", { code: await wrongCodeOf(setup.secret) }),
      /Authentication code is not valid/,
    );
    const { recoveryCodes } = (await session("twoFactor.confirm", { code: await codeOf(setup.secret) })) as {
      recoveryCodes: string[];
    };
    assert.equal(recoveryCodes.length, 10);
    assert.equal(new Set(recoveryCodes).size, 10);
    assert.deepEqual(await session.query("twoFactor.status"), { enabled: true, recoveryCodesLeft: 10 });
    // Recovery codes are kept only as SHA-256 hashes.
    const rows = await db.recoveryCode.findMany({ where: { userId: user.id } });
    assert.deepEqual(
      rows.map((r) => r.codeHash).sort(),
      recoveryCodes.map((c) => createHash("sha256").update(c.replace("-", "")).digest("hex")).sort(),
    );
    assert.ok(!JSON.stringify(rows).includes(recoveryCodes[0]));
    await assert.rejects(session("twoFactor.start"), /already on/);
    assert.deepEqual(await actionsOf(user.id), ["login", "login", "two_factor.enabled"]);
  });

  it("log-in asks for the authentication code; a code of the app logs in once, its neighbour step too", async () => {
    const { user, secret } = await withTwoFactor();
    await assert.rejects(logIn(user.email), /Authentication code required/);
    await assert.rejects(
      logIn(user.email, "wrong-password-1", BASE_URL, { code: await codeOf(secret) }),
      /CredentialsSignin/,
    );
    const code = await codeOf(secret);
    const session = await logIn(user.email, TEST_PASSWORD, BASE_URL, { code });
    assert.equal(((await session.query("twoFactor.status")) as { enabled: boolean }).enabled, true);
    // A code seen once is spent (a replay is refused), while the next step's code works (window of 1).
    await assert.rejects(logIn(user.email, TEST_PASSWORD, BASE_URL, { code }), /Wrong authentication code/);
    await logIn(user.email, TEST_PASSWORD, BASE_URL, { code: await codeOf(secret, 1) });
    const log = await db.activityEntry.findMany({
      where: { userId: user.id, action: { in: ["login", "login.failed"] } },
      orderBy: { id: "asc" },
    });
    assert.deepEqual(
      log.slice(-4).map((e) => [e.action, JSON.parse(e.detail ?? "{}").reason ?? null]),
      [
        ["login.failed", "password"],
        ["login", null],
        ["login.failed", "authentication code"],
        ["login", null],
      ],
    );
  });

  it("wrong authentication codes count against the failed log-in limit", async () => {
    const { user, secret } = await withTwoFactor();
    for (let i = 0; i < 5; i++)
      await assert.rejects(logIn(user.email, TEST_PASSWORD, BASE_URL, { code: "12345x" }), /Wrong authentication code/);
    await assert.rejects(
      logIn(user.email, TEST_PASSWORD, BASE_URL, { code: await codeOf(secret) }),
      /Too many failed log-ins: try again in \d+ minute/,
    );
  });

  it("a recovery code logs in once, then stops working", async () => {
    const { user, session, recoveryCodes } = await withTwoFactor();
    // Typed in capitals with spaces around: still the same code.
    await logIn(user.email, TEST_PASSWORD, BASE_URL, { code: ` ${recoveryCodes[3].toUpperCase()} ` });
    await assert.rejects(
      logIn(user.email, TEST_PASSWORD, BASE_URL, { code: recoveryCodes[3] }),
      /Wrong authentication code/,
    );
    assert.deepEqual(await session.query("twoFactor.status"), { enabled: true, recoveryCodesLeft: 9 });
    const used = await db.activityEntry.findFirstOrThrow({ where: { userId: user.id, action: "recovery_code.used" } });
    assert.equal(used.actorLabel, user.email);
    assert.deepEqual(JSON.parse(used.detail!), { left: 9 });
    assert.ok(
      !JSON.stringify(await db.activityEntry.findMany({ where: { userId: user.id } })).includes(recoveryCodes[3]),
      "no code in the log",
    );
  });

  it("a secret sealed under another NEXTAUTH_SECRET matches no code, and a recovery code still logs in", async () => {
    const { user, secret, recoveryCodes } = await withTwoFactor();
    const sealed = (await db.user.findUniqueOrThrow({ where: { id: user.id } })).totpSecret!;
    // The same secret sealed under another key: its tag no longer checks out.
    const [version, iv, tag, body] = sealed.split(".");
    const flipped = Buffer.from(tag, "base64url").map((b, i) => (i === 0 ? b ^ 1 : b));
    await db.user.update({
      where: { id: user.id },
      data: { totpSecret: [version, iv, Buffer.from(flipped).toString("base64url"), body].join(".") },
    });
    await assert.rejects(
      logIn(user.email, TEST_PASSWORD, BASE_URL, { code: await codeOf(secret) }),
      /Wrong authentication code/,
    );
    await logIn(user.email, TEST_PASSWORD, BASE_URL, { code: recoveryCodes[0] });
  });

  it("disabling needs the password; then log-in asks no code and the codes are gone", async () => {
    const { user, session, recoveryCodes } = await withTwoFactor();
    await assert.rejects(session("twoFactor.disable", { password: "not-the-password" }), /Password is not correct/);
    assert.equal(((await session.query("twoFactor.status")) as { enabled: boolean }).enabled, true);
    await session("twoFactor.disable", { password: TEST_PASSWORD });
    assert.deepEqual(await session.query("twoFactor.status"), { enabled: false, recoveryCodesLeft: 0 });
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    assert.equal(stored.totpSecret, null);
    assert.equal(stored.totpEnabledAt, null);
    assert.equal(await db.recoveryCode.count({ where: { userId: user.id } }), 0);
    await logIn(user.email);
    assert.equal(
      await db.recoveryCode.count({
        where: { codeHash: createHash("sha256").update(recoveryCodes[0].replace("-", "")).digest("hex") },
      }),
      0,
    );
    assert.deepEqual(
      (await actionsOf(user.id)).filter((a) => a.startsWith("two_factor")),
      ["two_factor.enabled", "two_factor.disabled"],
    );
  });

  it("each action refuses a request from another site (Origin check)", async () => {
    const { user, session, secret } = await withTwoFactor();
    for (const [procedure, input] of [
      ["twoFactor.start", undefined],
      ["twoFactor.confirm", { code: await codeOf(secret) }],
      ["twoFactor.disable", { password: TEST_PASSWORD }],
    ] as const) {
      const refused = await fetch(`${BASE_URL}/api/trpc/${procedure}`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: session.cookie(), origin: "https://evil.example" },
        body: input === undefined ? undefined : JSON.stringify(input),
      });
      assert.equal(refused.status, 403, procedure);
      assert.deepEqual(await refused.json(), { error: { message: "Cross-site request refused" } });
    }
    assert.deepEqual(await session.query("twoFactor.status"), { enabled: true, recoveryCodesLeft: 10 });
    assert.ok((await db.user.findUniqueOrThrow({ where: { id: user.id } })).totpEnabledAt);
  });
});
