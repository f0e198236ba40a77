// Delete account on /profile (contract: "Accounts for real"): confirmed by the typed email and
// the password; refused while the account owns a team with other members; revokes its keys,
// deletes its library (dynamic codes answer 410), removes its membership, ends its sessions and
// anonymises the account, so that log-in fails. What a team's log holds stays.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { recordActivity } from "../../server/activity";
import { db } from "../../server/platform/db";
import { keyDisplay } from "../../server/keys/apiKeys";
import { addMember, generateBusinessKey } from "../../server/teams/teams";
import { createUser } from "../../server/accounts/users";
import { waitForMail, linkIn } from "../mail-sink";
import { BASE_URL, http, logIn, makeTeam, personalKey, TEST_PASSWORD } from "../helpers";

const createDynamic = async (key: string, name: string) => {
  const r = await http("POST", "/v1/dynqrcodes", {
    key,
    json: { destination_url: "https://example.com/deleted-soon", name },
  });
  assert.equal(r.status, 201);
  return (r.body as { created: { code: string }[] }).created[0].code;
};

describe("account deletion", () => {
  it("revokes the keys (401), the short links answer 410, log-in fails, the row keeps nothing of the person; the team's log keeps its entries", async () => {
    const { user, key } = await personalKey("pro");
    const team = await makeTeam();
    await addMember(team.admin.id, user.email, "writer");
    const { key: businessKey } = await generateBusinessKey(user.id);
    const businessRow = await db.apiKey.findFirstOrThrow({ where: { userId: user.id, scope: "business", live: true } });
    const code = await createDynamic(key, "Personal poster");
    const teamDraft = await createDynamic(businessKey, "Team draft");
    assert.equal(
      (await http("POST", "/v1/qrcodes", { key, json: { url: "https://example.com/s", name: "Static" } })).status,
      201,
    );
    assert.equal((await http("GET", `/q/${code}`)).status, 302);

    // An entry of the account's own log (as a log-in or a password change writes).
    await recordActivity({ userId: user.id, actor: { id: user.id, label: user.email }, action: "password.changed" });
    const page = await logIn(user.email);
    await assert.rejects(
      page("account.delete", { email: "someone@else.example", password: TEST_PASSWORD }),
      /Type your email address \(.+\) to confirm/,
    );
    await assert.rejects(
      page("account.delete", { email: user.email, password: "wrong-password" }),
      /Password is not right/,
    );
    assert.equal((await http("GET", "/v1/qrcodes", { key })).status, 200, "nothing happened yet");

    assert.deepEqual(
      await page("account.delete", { email: ` ${user.email.toUpperCase()} `, password: TEST_PASSWORD }),
      { deleted: true },
    );

    for (const k of [key, businessKey]) {
      const refused = await http("GET", "/v1/dynqrcodes", { key: k });
      assert.equal(refused.status, 401);
      assert.deepEqual(refused.body, { error: "API key has been revoked" });
    }
    const gone = await http("GET", `/q/${code}`);
    assert.equal(gone.status, 410);
    await assert.rejects(logIn(user.email), /log-in failed/);

    const row = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    assert.equal(row.email, `deleted-${user.id}@deleted.invalid`);
    assert.equal(row.name, "Deleted account");
    assert.equal(row.passwordHash, "!");
    assert.deepEqual([row.tier, row.totpSecret, row.totpEnabledAt], ["free", null, null]);
    assert.ok(row.deletedAt);
    assert.equal(row.sessionVersion, user.sessionVersion + 1, "every session ends");
    assert.equal(await db.membership.count({ where: { userId: user.id } }), 0);
    assert.equal(await db.staticCode.count({ where: { userId: user.id } }), 0);
    assert.ok(
      (await db.dynamicCode.findFirstOrThrow({ where: { code } })).deletedAt,
      "soft-deleted: the code is never reused",
    );
    // The team's library keeps what the member made there.
    assert.equal((await db.dynamicCode.findFirstOrThrow({ where: { code: teamDraft } })).deletedAt, null);

    // The team's log: the revocation, labelled as the account was shown then.
    const revoked = await db.activityEntry.findFirstOrThrow({
      where: { teamId: team.id, action: "key.revoked", actorId: user.id },
    });
    assert.deepEqual([revoked.actorLabel, revoked.target], [user.email, keyDisplay(businessRow)]);
    assert.ok(!JSON.stringify(revoked).includes(businessKey));

    // The account's own log goes with it (on PostgreSQL past the append-only trigger).
    assert.equal(await db.activityEntry.count({ where: { userId: user.id, teamId: null } }), 0);

    // The address is free again.
    const again = await createUser({ email: user.email, password: TEST_PASSWORD, name: "Back Again" });
    assert.notEqual(again.id, user.id);
    await logIn(user.email);
  });

  it("refused while the account owns a team with other members; an owner alone takes the team with it", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const teamCode = await createDynamic(team.adminKey, "Team code");
    await (
      await logIn(team.admin.email)
    )("team.approve", { kind: "dynamic", id: teamCode });
    assert.equal((await http("GET", `/q/${teamCode}`)).status, 302);
    const owner = await logIn(team.admin.email);
    await assert.rejects(
      owner("account.delete", { email: team.admin.email, password: TEST_PASSWORD }),
      /You own the team “.+”, which has other members: hand it to another admin first \(Make owner on the Business page\)/,
    );
    assert.equal((await http("GET", "/v1/dynqrcodes", { key: team.adminKey })).status, 200, "nothing changed");
    assert.equal((await db.user.findUniqueOrThrow({ where: { id: team.admin.id } })).deletedAt, null);

    // Alone in the team: the team goes with the account (keys, library, pending invitations).
    await owner("team.removeMember", { userId: writer.user.id });
    const invitee = `pending-${team.id}@test.example`;
    await owner("invitations.send", { email: invitee, role: "viewer" });
    const token = linkIn(await waitForMail(invitee, /Join the team/), "/invite/").pathname.slice("/invite/".length);
    await owner("account.delete", { email: team.admin.email, password: TEST_PASSWORD });
    const refused = await http("GET", "/v1/dynqrcodes", { key: team.adminKey });
    assert.deepEqual([refused.status, refused.body], [401, { error: "API key has been revoked" }]);
    assert.equal((await http("GET", `/q/${teamCode}`)).status, 410);
    const teamRow = await db.team.findUniqueOrThrow({ where: { id: team.id }, include: { members: true } });
    assert.deepEqual([teamRow.name, teamRow.members.length], ["Deleted team", 0]);
    assert.match(await fetch(`${BASE_URL}/invite/${token}`).then((r) => r.text()), /This invitation was cancelled/);
  });

  it("wrong passwords count against the account's /profile limit", async () => {
    const { user } = await personalKey("pro");
    const page = await logIn(user.email);
    for (let i = 0; i < 5; i++)
      await assert.rejects(
        page("account.delete", { email: user.email, password: `wrong-${i}` }),
        /Password is not right/,
      );
    await assert.rejects(
      page("account.delete", { email: user.email, password: TEST_PASSWORD }),
      /Too many wrong passwords: try again in \d+ minute\(s\)/,
    );
    assert.equal((await db.user.findUniqueOrThrow({ where: { id: user.id } })).deletedAt, null);
  });
});
