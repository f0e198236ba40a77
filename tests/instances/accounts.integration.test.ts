// Account tokens and sessions across servers on one database (contract: "Accounts for real"):
// expiry seen by servers whose clock runs ahead (CLOCK_OFFSET_SECONDS, no sleeping), a reset
// that ends sessions on every instance, the forms' limits per client address (a server behind a
// pretend proxy, so each test has addresses of its own), and the outbox when there is no SMTP server.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { simpleParser } from "mailparser";
import { startServer, type RunningServer } from "../../scripts/harness";
import { freshEmail, mailedToken, mutate, refusal, signUp } from "../accounts";
import { BASE_URL, logIn, makeUser, TEST_PASSWORD, until } from "../helpers";
import { linkIn } from "../mail-sink";

const EXPIRED = "This link has expired or was already used: ask for a new one";

describe("expiry, on servers whose clock runs ahead", () => {
  let hourLater: RunningServer;
  let dayLater: RunningServer;
  before(async () => {
    [hourLater, dayLater] = await Promise.all([
      startServer({ CLOCK_OFFSET_SECONDS: "3700" }),
      startServer({ CLOCK_OFFSET_SECONDS: String(24 * 3600 + 100) }),
    ]);
  });
  after(() => Promise.all([hourLater.stop(), dayLater.stop()]));

  it("a reset link is refused after 1 hour", async () => {
    const user = await makeUser("pro");
    await mutate("account.forgotPassword", { email: user.email });
    const token = await mailedToken(user.email, /Reset your password/, "/reset-password");
    const late = await mutate(
      "account.resetPassword",
      { token, password: "a-new-password-1" },
      { base: hourLater.base },
    );
    assert.equal(late.status, 400);
    assert.equal(refusal(late), EXPIRED);
    // Refused for its age, not spent: on time, it still works.
    assert.equal((await mutate("account.resetPassword", { token, password: "a-new-password-1" })).status, 200);
  });

  it("a verification link lives 24 hours", async () => {
    const first = await signUp();
    const second = await signUp();
    const [early, late] = [
      await mailedToken(first.email, /Verify/, "/verify-email"),
      await mailedToken(second.email, /Verify/, "/verify-email"),
    ];
    assert.equal(
      (await mutate("account.verifyEmail", { token: early }, { base: hourLater.base })).status,
      200,
      "an hour later: fine",
    );
    const refused = await mutate("account.verifyEmail", { token: late }, { base: dayLater.base });
    assert.equal(refused.status, 400);
    assert.equal(refusal(refused), EXPIRED);
  });

  it("an email change link lives 24 hours", async () => {
    const user = await makeUser("pro");
    const next = freshEmail();
    await (
      await logIn(user.email)
    )("account.changeEmail", { email: next, currentPassword: TEST_PASSWORD });
    const token = await mailedToken(next, /Confirm your new email address/, "/confirm-email");
    assert.equal(refusal(await mutate("account.confirmEmail", { token }, { base: dayLater.base })), EXPIRED);
  });
});

describe("sessions ended on every instance", () => {
  let second: RunningServer;
  before(async () => {
    second = await startServer({ TRUST_PROXY: "1" });
  });
  after(() => second.stop());

  it("a session cookie taken before a reset is refused afterwards by both servers", async () => {
    const user = await makeUser("pro");
    const session = await logIn(user.email);
    const onSecond = (pathname: string) =>
      fetch(second.base + pathname, { headers: { cookie: session.cookie() }, redirect: "manual" });
    assert.equal((await session.get("/profile")).status, 200);
    assert.equal((await onSecond("/profile")).status, 200, "one cookie, valid on both servers");

    await mutate(
      "account.forgotPassword",
      { email: user.email },
      { base: second.base, headers: { "x-forwarded-for": "198.51.100.1" } },
    );
    const token = await mailedToken(user.email, /Reset your password/, "/reset-password");
    assert.equal((await mutate("account.resetPassword", { token, password: "a-new-password-1" })).status, 200);

    for (const [name, res] of [
      ["main", await session.get("/profile")],
      ["second", await onSecond("/profile")],
    ] as const) {
      assert.equal(res.status, 307, name);
      assert.match(res.headers.get("location") ?? "", /\/login/, name);
    }
    const call = await fetch(`${second.base}/api/trpc/keys.personal`, { headers: { cookie: session.cookie() } });
    assert.equal(call.status, 401);
    assert.equal(((await call.json()) as { error: { message: string } }).error.message, "Log in first");
  });

  // Forms' limits: the second server believes X-Forwarded-For, so each test has addresses of its own.
  const from = (address: string) => ({ base: second.base, headers: { "x-forwarded-for": address } });

  it("forgot-password: 10 an hour per client address, then 429", async () => {
    const address = `198.51.100.${10 + Math.floor(Math.random() * 200)}`;
    for (let i = 0; i < 10; i++)
      assert.equal(
        (await mutate("account.forgotPassword", { email: freshEmail() }, from(address))).status,
        200,
        `request ${i + 1}`,
      );
    const refused = await mutate("account.forgotPassword", { email: freshEmail() }, from(address));
    assert.equal(refused.status, 429);
    assert.match(refusal(refused), /^Too many reset requests: try again in \d+ minute\(s\)$/);
    assert.equal(
      (await mutate("account.forgotPassword", { email: freshEmail() }, from("203.0.113.9"))).status,
      200,
      "another address is not limited",
    );
  });

  it("forgot-password: 3 an hour per address typed, known or not, from any client address", async () => {
    for (const email of [(await makeUser("pro")).email, freshEmail()]) {
      const replies = [];
      for (let i = 0; i < 4; i++)
        replies.push(
          await mutate("account.forgotPassword", { email }, from(`192.0.2.${Math.floor(Math.random() * 250)}`)),
        );
      assert.deepEqual(
        replies.map((r) => r.status),
        [200, 200, 200, 429],
        email,
      );
    }
  });

  it("mailed links: 20 refused ones per client address in 15 minutes, then 429 even for a good link", async () => {
    const address = `203.0.113.${100 + Math.floor(Math.random() * 150)}`;
    for (let i = 0; i < 20; i++)
      assert.equal((await mutate("account.verifyEmail", { token: randomUUID() }, from(address))).status, 400);
    const { email } = await signUp();
    const token = await mailedToken(email, /Verify/, "/verify-email");
    const limited = await mutate("account.verifyEmail", { token }, from(address));
    assert.equal(limited.status, 429);
    assert.match(refusal(limited), /^Too many refused links: try again in \d+ minute\(s\)$/);
    for (const procedure of ["account.resetPassword", "account.confirmEmail"]) {
      assert.equal(
        (await mutate(procedure, { token: randomUUID(), password: "a-new-password-1" }, from(address))).status,
        429,
        procedure,
      );
    }
    assert.equal(
      (await mutate("account.verifyEmail", { token }, from("198.51.100.250"))).status,
      200,
      "the link itself still works",
    );
  });
});

describe("mail without an SMTP server", () => {
  let server: RunningServer;
  let outbox: string;
  before(async () => {
    outbox = mkdtempSync(path.join(tmpdir(), "qr-outbox-"));
    server = await startServer({ SMTP_URL: "", MAIL_OUTBOX: "1", MAIL_OUTBOX_DIR: outbox, LOG_LEVEL: "info" });
  });
  after(async () => {
    await server.stop();
    rmSync(outbox, { recursive: true, force: true });
  });

  it("MAIL_OUTBOX=1 writes each mail as an .eml file and logs its name", async () => {
    const { email } = await signUp({ base: server.base });
    // The mail leaves after the answer (a sign-up's time must not tell whether the address was taken).
    const emls = () => readdirSync(outbox).filter((f) => f.endsWith(".eml"));
    await until(() => emls().length > 0 && server.output().includes('"mail.outbox"'), "the mail in the outbox");
    const files = emls();
    assert.equal(files.length, 1);
    const mail = await simpleParser(readFileSync(path.join(outbox, files[0])));
    assert.deepEqual(
      [mail.to && !Array.isArray(mail.to) ? mail.to.text : null, mail.subject],
      [email, "Verify your email address"],
    );
    assert.ok(mail.html && mail.html.includes("/verify-email?token="), "an HTML body");
    const link = linkIn(mail, "/verify-email").toString();
    assert.ok(link.startsWith(`${BASE_URL}/`), "links from APP_URL");
    const logged = server
      .output()
      .split("\n")
      .filter((line) => line.includes('"mail.outbox"'))
      .map((line) => JSON.parse(line) as { links?: string[]; file: string });
    // The file's name, never its link (tests/instances/private-files.integration.test.ts checks for the token).
    assert.deepEqual(
      logged.map((l) => [path.basename(l.file), l.links]),
      [[files[0], undefined]],
    );
    // The link works on this server.
    assert.equal(
      (await mutate("account.verifyEmail", { token: new URL(link).searchParams.get("token") }, { base: server.base }))
        .status,
      200,
    );
  });
});
