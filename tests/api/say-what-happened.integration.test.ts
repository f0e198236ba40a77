// Issue 39, "say what happened" and "small things", over plain HTTP: a reset link's page says it
// is dead before a password is typed (and looking does not use it); a draft decided once says
// by whom and when; a rejection carries a reason the writer sees and is mailed; an invitation
// to an address longer than RFC 5321 allows is refused.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { invitationEmail, inviteMember } from "../../server/teams/invitations";
import { mailedToken, mutate, refusal } from "../accounts";
import { BASE_URL, http, logIn, makeTeam, makeUser } from "../helpers";
import { waitForMail } from "../mail-sink";

const resetPage = async (token: string) =>
  (await fetch(`${BASE_URL}/reset-password?token=${encodeURIComponent(token)}`)).text();
const DEAD = "This link has expired or was already used";

describe("a reset link's page", () => {
  it("shows the form for a live link without using it; says a used or expired link is dead, with a way to ask again", async () => {
    const user = await makeUser("free");
    await mutate("account.forgotPassword", { email: user.email });
    const token = await mailedToken(user.email, /Reset your password/, "/reset-password");
    for (let i = 0; i < 2; i++) {
      const live = await resetPage(token);
      assert.match(live, /id="password"/);
      assert.ok(!live.includes(DEAD));
    }
    // Looked at twice, still good for the reset itself.
    assert.equal((await mutate("account.resetPassword", { token, password: "a-new-password-1" })).status, 200);
    const used = await resetPage(token);
    assert.ok(used.includes(DEAD), "a used link is said to be dead");
    assert.ok(!/id="password"/.test(used), "and shows no form");
    assert.match(used, /href="\/forgot-password"/);

    await mutate("account.forgotPassword", { email: user.email });
    const second = await mailedToken(user.email, /Reset your password/, "/reset-password", 2);
    assert.match(await resetPage(second), /id="password"/);
    await db.accountToken.updateMany({
      where: { userId: user.id, usedAt: null },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    assert.ok((await resetPage(second)).includes(DEAD), "an expired link is said to be dead");
    for (const junk of ["", "x", "x".repeat(5000)]) assert.ok((await resetPage(junk)).includes(DEAD));
  });
});

describe("drafts decided once, and the reason of a rejection", () => {
  it("a second approval says who approved it and when; a rejection needs a reason, which the writer sees and is mailed", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const made = await http("POST", "/v1/dynqrcodes/batch", {
      key: writer.key,
      json: {
        dynqrcodes: ["Menu", "Poster"].map((name) => ({ name, destination_url: `https://example.com/${name}` })),
      },
    });
    const [menu, poster] = (made.body as { created: { code: string }[] }).created.map((c) => c.code);
    const flyer = (
      (
        await http("POST", "/v1/qrcodes", {
          key: writer.key,
          json: { url: "https://example.com/flyer", name: "Flyer" },
        })
      ).body as { created: { qr_id: string }[] }
    ).created[0].qr_id;
    const admin = await logIn(team.admin.email);
    const otherTab = await logIn(team.admin.email);

    await admin("team.approve", { kind: "dynamic", id: menu });
    const approvedAt = (await db.dynamicCode.findFirstOrThrow({ where: { code: menu } })).reviewedAt!;
    const stamp = `${approvedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
    await assert.rejects(otherTab("team.approve", { kind: "dynamic", id: menu }), {
      message: `This draft was already approved by ${team.admin.email} at ${stamp}`,
    });
    await assert.rejects(
      otherTab("team.reject", { kind: "dynamic", id: menu, reason: "Too late" }),
      /already approved by/,
    );

    // No reason, no rejection: the draft stays.
    await assert.rejects(admin("team.reject", { kind: "static", id: flyer }), /Write the reason for the writer/);
    await assert.rejects(
      admin("team.reject", { kind: "static", id: flyer, reason: "   " }),
      /Write the reason for the writer/,
    );
    await assert.rejects(
      admin("team.review", { decision: "reject", items: [{ kind: "static", id: flyer }] }),
      /Write the reason for the writer/,
    );
    await assert.rejects(
      admin("team.reject", { kind: "static", id: flyer, reason: "x".repeat(501) }),
      /at most 500 characters/,
    );
    assert.equal((await db.staticCode.findUniqueOrThrow({ where: { id: flyer } })).reviewStatus, "draft");

    await admin("team.reject", { kind: "static", id: flyer, reason: "The flyer links to last year's menu" });
    await assert.rejects(
      otherTab("team.approve", { kind: "static", id: flyer }),
      new RegExp(
        `^Error: This draft was already rejected by ${team.admin.email.replace(/[.+]/g, "\\$&")} at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`,
      ),
    );
    await admin("team.review", {
      decision: "reject",
      items: [{ kind: "dynamic", id: poster }],
      reason: "Wrong poster",
    });
    await assert.rejects(otherTab("team.approve", { kind: "dynamic", id: poster }), /already rejected by/);
    await assert.rejects(
      otherTab("team.approve", { kind: "dynamic", id: "ZZZZZZZZ" }),
      /^Error: No such draft in your team$/,
    );

    // The writer sees each reason on /business, newest first, and was mailed it.
    const seen = (await (await logIn(writer.user.email)).query("team.draftRejections")) as {
      name: string;
      reason: string;
      by: string;
    }[];
    assert.deepEqual(
      seen.map((r) => [r.name, r.reason, r.by]),
      [
        ["Poster", "Wrong poster", team.admin.email],
        ["Flyer", "The flyer links to last year's menu", team.admin.email],
      ],
    );
    assert.deepEqual(await (await logIn(team.admin.email)).query("team.draftRejections"), [], "only the writer's own");
    const mail = await waitForMail(writer.user.email, /Your draft “Flyer” was rejected/);
    assert.match(mail.text ?? "", /rejected your draft: “Flyer” \(https:\/\/example\.com\/flyer\)/);
    assert.match(mail.text ?? "", /Reason: The flyer links to last year's menu/);
    assert.match(
      (await waitForMail(writer.user.email, /Your draft “Poster” was rejected/)).text ?? "",
      /Reason: Wrong poster/,
    );
  });
});

describe("invitations to addresses no mail can reach", () => {
  const domainOf = (tld: string) => `${"d".repeat(60)}.${"e".repeat(60)}.${"f".repeat(60)}.${tld}`;
  it("refuses more than 254 characters, or more than 64 before the @, and writes nothing; the limits themselves pass", async () => {
    const team = await makeTeam();
    const admin = await logIn(team.admin.email);
    const longest = `${"a".repeat(64)}@${domainOf("exampl")}`;
    assert.equal(longest.length, 254);
    const tooLong = `${"a".repeat(64)}@${domainOf("example")}`;
    await assert.rejects(
      admin("invitations.send", { email: tooLong, role: "writer" }),
      /An email address has at most 254 characters \(RFC 5321\); this one has 255/,
    );
    await assert.rejects(
      admin("invitations.send", { email: `${"a".repeat(65)}@example.com`, role: "writer" }),
      /before the @ has at most 64 characters \(RFC 5321\)/,
    );
    await assert.rejects(
      admin("invitations.send", { email: `${"a".repeat(10_000)}@example.com`, role: "writer" }),
      /at most 254 characters/,
    );
    assert.equal(await db.invitation.count({ where: { teamId: team.id } }), 0);
    // 254 passes the rule (not sent: the tests' SMTP server refuses labels of 60 characters).
    assert.equal(invitationEmail.safeParse(longest).success, true);
    await admin("invitations.send", { email: `${"b".repeat(64)}@example.com`, role: "viewer" });
    assert.equal(await db.invitation.count({ where: { teamId: team.id } }), 1);
    // Refused by the rule of the domain too, whatever edge calls it.
    await assert.rejects(inviteMember(team.admin.id, tooLong, "writer"), /at most 254 characters/);
    assert.ok(
      refusal(
        await mutate("invitations.send", { email: tooLong, role: "writer" }, { cookie: admin.cookie() }),
      ).includes("RFC 5321"),
    );
  });
});
