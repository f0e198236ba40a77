// Team invitations (contract: "Accounts for real"): the mail and its link, acceptance after
// log-in or sign-up with the invited address, single use, cancellation, one team per account,
// the per-team rate limit, the activity log, and the Origin check on every new page action.
// Expiry is in tests/instances/invitation-expiry.integration.test.ts (a server whose clock is 8 days ahead).
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { linkIn, mailsTo, waitForMail } from "../mail-sink";
import { BASE_URL, logIn, makeTeam, makeUser, TEST_PASSWORD } from "../helpers";

type Page = Awaited<ReturnType<typeof logIn>>;

/** The admin invites `email`; returns the token of the mailed link (the nth mail to that address). */
async function invite(admin: Page, email: string, role = "writer", nth = 1) {
  const { id } = (await admin("invitations.send", { email, role })) as { id: string };
  const mail = await waitForMail(email, /Join the team/, { nth });
  const link = linkIn(mail, "/invite/");
  return { id, mail, link, token: link.pathname.slice("/invite/".length) };
}

const teamLog = (teamId: string) => db.activityEntry.findMany({ where: { teamId }, orderBy: { id: "asc" } });
const invitationPage = async (token: string, page?: Page) =>
  (page ? page.get(`/invite/${token}`) : fetch(`${BASE_URL}/invite/${token}`)).then((r) => r.text());

describe("team invitations", () => {
  it("an existing account gets the mail, accepts after log-in, joins with the role; the link works once; the log says who and whom", async () => {
    const team = await makeTeam();
    const admin = await logIn(team.admin.email);
    const invitee = await makeUser("free");
    const { id, mail, link, token } = await invite(admin, invitee.email, "viewer");

    // The mail: who invites, to which team, the link from APP_URL; only the token's SHA-256 is stored.
    assert.match(
      mail.text ?? "",
      new RegExp(
        `invites you to the team “Team ${team.admin.email.replace(/[.+]/g, "\\$&")}” on QR Records, as a viewer`,
      ),
    );
    assert.match(mail.html || "", /href="http:\/\/127\.0\.0\.1:\d+\/invite\//);
    assert.equal(link.origin, BASE_URL);
    assert.match(token, /^[0-9A-Za-z]{43}$/);
    const row = await db.invitation.findUniqueOrThrow({ where: { id } });
    assert.equal(row.tokenHash, createHash("sha256").update(token).digest("hex"));
    assert.ok(!JSON.stringify(row).includes(token));
    assert.equal(Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / 3_600_000), 7 * 24);

    // The admins' list of pending invitations.
    const pending = (await admin.query("invitations.pending")) as {
      id: string;
      email: string;
      role: string;
      invitedBy: string;
    }[];
    assert.deepEqual(
      pending.map((p) => [p.id, p.email, p.role, p.invitedBy]),
      [[id, invitee.email, "viewer", team.admin.email]],
    );

    // Not logged in: the team and role, and the way to log in or sign up with that address.
    const anonymous = await invitationPage(token);
    assert.match(anonymous, /data-testid="invitation-role">a viewer</);
    assert.ok(
      anonymous.includes(`/signup?email=${encodeURIComponent(invitee.email)}`),
      "sign up with the address filled in",
    );
    assert.ok(
      anonymous.includes(`/login?email=${encodeURIComponent(invitee.email)}`),
      "log in with the address filled in",
    );

    const page = await logIn(invitee.email);
    assert.match(await invitationPage(token, page), /Accept invitation/);
    assert.deepEqual(await page("invitations.accept", { token }), {
      teamName: `Team ${team.admin.email}`,
      role: "viewer",
    });
    const membership = await db.membership.findUniqueOrThrow({ where: { userId: invitee.id } });
    assert.deepEqual([membership.teamId, membership.role], [team.id, "viewer"]);
    assert.deepEqual(await admin.query("invitations.pending"), []);

    // Single use.
    await assert.rejects(page("invitations.accept", { token }), /This invitation has already been used/);
    assert.match(await invitationPage(token), /This invitation has already been used/);
    await assert.rejects(page("invitations.accept", { token: "x".repeat(43) }), /This invitation link is not valid/);

    const log = await teamLog(team.id);
    const sent = log.find((e) => e.action === "invitation.sent")!;
    assert.deepEqual(
      [sent.actorId, sent.actorLabel, sent.target, JSON.parse(sent.detail!)],
      [team.admin.id, team.admin.email, invitee.email, { role: "viewer" }],
    );
    const joined = log.find((e) => e.action === "member.joined")!;
    assert.deepEqual(
      [joined.actorId, joined.actorLabel, joined.target, JSON.parse(joined.detail!)],
      [invitee.id, invitee.email, invitee.email, { role: "viewer" }],
    );
    assert.ok(!JSON.stringify(log).includes(token), "no token in the log");
  });

  it("a new address signs up from the link (address filled in) and joins; opening the mailed link verifies the address", async () => {
    const team = await makeTeam();
    const admin = await logIn(team.admin.email);
    const email = `newcomer-${randomUUID()}@test.example`;
    const { token } = await invite(admin, email, "writer");
    const signup = await fetch(`${BASE_URL}/signup?${new URLSearchParams({ email, next: `/invite/${token}` })}`).then(
      (r) => r.text(),
    );
    assert.ok(signup.includes(`value="${email}"`), "the sign-up form has the invited address");

    const created = await fetch(`${BASE_URL}/api/trpc/account.signup`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE_URL },
      body: JSON.stringify({ email, password: TEST_PASSWORD, name: "New Comer" }),
    });
    assert.equal(created.status, 200);
    const page = await logIn(email);
    await page("invitations.accept", { token });
    const user = await db.user.findUniqueOrThrow({ where: { email }, include: { membership: true } });
    assert.deepEqual([user.membership?.teamId, user.membership?.role], [team.id, "writer"]);
    assert.ok(user.emailVerifiedAt, "verified by the invitation's link");
  });

  it("a cancelled link is refused; inviting the address again replaces the pending invitation; only admins invite and cancel", async () => {
    const team = await makeTeam();
    const admin = await logIn(team.admin.email);
    const invitee = await makeUser("free");
    const first = await invite(admin, invitee.email, "writer");

    const writer = await logIn((await team.addMember("writer")).email);
    await assert.rejects(
      writer("invitations.send", { email: `x-${randomUUID()}@test.example`, role: "writer" }),
      /Only a team admin can do this/,
    );
    await assert.rejects(writer("invitations.cancel", { id: first.id }), /Only a team admin can do this/);

    await admin("invitations.cancel", { id: first.id });
    await assert.rejects(admin("invitations.cancel", { id: first.id }), /No such pending invitation/);
    const page = await logIn(invitee.email);
    await assert.rejects(page("invitations.accept", { token: first.token }), /This invitation was cancelled/);
    assert.match(await invitationPage(first.token, page), /This invitation was cancelled by the team&#x27;s admin/);
    assert.equal(await db.membership.count({ where: { userId: invitee.id } }), 0);
    const cancelled = (await teamLog(team.id)).find((e) => e.action === "invitation.cancelled")!;
    assert.deepEqual(
      [cancelled.actorId, cancelled.actorLabel, cancelled.target],
      [team.admin.id, team.admin.email, invitee.email],
    );

    // Invited twice: the second link replaces the first.
    const second = await invite(admin, invitee.email, "viewer", 2);
    const third = await invite(admin, invitee.email, "admin", 3);
    assert.deepEqual(
      ((await admin.query("invitations.pending")) as { id: string }[]).map((p) => p.id),
      [third.id],
    );
    await assert.rejects(page("invitations.accept", { token: second.token }), /This invitation was cancelled/);
    assert.deepEqual(await page("invitations.accept", { token: third.token }), {
      teamName: `Team ${team.admin.email}`,
      role: "admin",
    });

    // A member of the team is not invited again.
    await assert.rejects(
      admin("invitations.send", { email: invitee.email, role: "writer" }),
      /This account is already in your team/,
    );
    await assert.rejects(
      admin("invitations.send", { email: "not an address", role: "writer" }),
      /Enter a valid email address/,
    );
  });

  it("only the invited address accepts; an account already in a team is refused (one team per account)", async () => {
    const team = await makeTeam();
    const admin = await logIn(team.admin.email);
    const invitee = await makeUser("free");
    const { token } = await invite(admin, invitee.email);

    const stranger = await makeUser("free");
    const strangerPage = await logIn(stranger.email);
    await assert.rejects(
      strangerPage("invitations.accept", { token }),
      new RegExp(`This invitation is for ${invitee.email.replace(/[.+]/g, "\\$&")}: log in with that address`),
    );
    assert.match(await invitationPage(token, strangerPage), /Log out and log in as/);
    assert.equal(await db.membership.count({ where: { userId: stranger.id } }), 0);

    // The invitee joins another team meanwhile: this invitation is refused, and stays pending.
    const other = await makeTeam();
    await (
      await logIn(other.admin.email)
    )("invitations.send", { email: invitee.email, role: "writer" });
    const otherToken = linkIn(await waitForMail(invitee.email, /Join the team/, { nth: 2 }), "/invite/").pathname.slice(
      "/invite/".length,
    );
    const page = await logIn(invitee.email);
    await page("invitations.accept", { token: otherToken });
    await assert.rejects(
      page("invitations.accept", { token }),
      new RegExp(
        `You already belong to the team “Team ${other.admin.email.replace(/[.+]/g, "\\$&")}”: an account can be in one team only`,
      ),
    );
    assert.equal((await db.membership.findUniqueOrThrow({ where: { userId: invitee.id } })).teamId, other.id);
    assert.equal(((await admin.query("invitations.pending")) as unknown[]).length, 1);
  });

  it("invitations are rate-limited per team (20, refilled over an hour); another team is not affected", async () => {
    const team = await makeTeam();
    const admin = await logIn(team.admin.email);
    const address = () => `flood-${randomUUID()}@test.example`;
    for (let i = 0; i < 20; i++) await admin("invitations.send", { email: address(), role: "viewer" });
    const refused = address();
    await assert.rejects(
      admin("invitations.send", { email: refused, role: "viewer" }),
      /Too many invitations: try again in \d+ minute\(s\)/,
    );
    assert.equal(await db.invitation.count({ where: { teamId: team.id } }), 20);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await mailsTo(refused), [], "no mail for a refused invitation");
    const other = await makeTeam();
    await (
      await logIn(other.admin.email)
    )("invitations.send", { email: address(), role: "viewer" });
  });

  it("every new page action is refused from another origin (CSRF) and changes nothing", async () => {
    const team = await makeTeam();
    const admin = await logIn(team.admin.email);
    const member = await team.addMember("admin");
    const invitee = await makeUser("free");
    const { id, token } = await invite(admin, invitee.email);
    const inviteePage = await logIn(invitee.email);
    const actions: [Page, string, unknown][] = [
      [admin, "invitations.send", { email: `csrf-${randomUUID()}@test.example`, role: "writer" }],
      [admin, "invitations.cancel", { id }],
      [inviteePage, "invitations.accept", { token }],
      [admin, "team.makeOwner", { userId: member.id }],
      [inviteePage, "account.delete", { email: invitee.email, password: TEST_PASSWORD }],
    ];
    for (const [page, procedure, input] of actions) {
      for (const origin of ["https://evil.example", null]) {
        const refused = await fetch(`${BASE_URL}/api/trpc/${procedure}`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie: page.cookie(), ...(origin ? { origin } : {}) },
          body: JSON.stringify(input),
        });
        assert.equal(refused.status, 403, `${procedure} from ${origin}`);
        assert.deepEqual(await refused.json(), { error: { message: "Cross-site request refused" } });
      }
    }
    assert.equal(await db.invitation.count({ where: { teamId: team.id } }), 1);
    const row = await db.invitation.findUniqueOrThrow({ where: { id } });
    assert.deepEqual([row.cancelledAt, row.acceptedAt], [null, null]);
    assert.equal((await db.team.findUniqueOrThrow({ where: { id: team.id } })).ownerId, team.admin.id);
    assert.equal((await db.user.findUniqueOrThrow({ where: { id: invitee.id } })).deletedAt, null);
  });
});
