// Ownership hand-over (Make owner): only the owner, only to another admin of the team; the
// team's keys then follow the new owner's tier (the key gate reads the owner's tier).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { generateBusinessKey, teamOverview } from "../../server/teams/teams";
import { setTier } from "../../server/accounts/users";
import { http, logIn, makeTeam, makeUser } from "../helpers";

const PLAN_REFUSAL = { error: "API access requires a Pro or Business plan" };

describe("ownership hand-over", () => {
  it("a Business new owner keeps the team's keys working; a Free one makes them 403 until an upgrade", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const businessAdmin = await team.addMember("admin");
    await setTier(businessAdmin.email, "business");
    const freeAdmin = await team.addMember("admin");
    const owner = await logIn(team.admin.email);

    // Only the owner hands over, and only to an admin of the team.
    const notOwner = await logIn(freeAdmin.email);
    await assert.rejects(
      notOwner("team.makeOwner", { userId: businessAdmin.id }),
      /Only the team's owner can hand over the team/,
    );
    await assert.rejects(
      owner("team.makeOwner", { userId: writer.user.id }),
      /Only an admin can own the team: make them an admin first/,
    );
    await assert.rejects(
      owner("team.makeOwner", { userId: (await makeUser("business")).id }),
      /No such member in your team/,
    );

    await owner("team.makeOwner", { userId: businessAdmin.id });
    const overview = (await teamOverview(businessAdmin.id))!;
    assert.equal(overview.team.ownerEmail, businessAdmin.email);
    assert.ok(overview.isOwner);
    assert.equal(
      overview.members.find((m) => m.userId === team.admin.id)?.role,
      "admin",
      "the former owner stays an admin",
    );
    for (const key of [team.adminKey, writer.key])
      assert.equal((await http("GET", "/v1/dynqrcodes", { key })).status, 200);
    // The former owner no longer hands it over.
    await assert.rejects(
      owner("team.makeOwner", { userId: freeAdmin.id }),
      /Only the team's owner can hand over the team/,
    );

    const newOwner = await logIn(businessAdmin.email);
    await newOwner("team.makeOwner", { userId: freeAdmin.id });
    for (const key of [team.adminKey, writer.key]) {
      const refused = await http("GET", "/v1/dynqrcodes", { key });
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.body, PLAN_REFUSAL);
    }
    assert.equal((await teamOverview(freeAdmin.id))!.team.ownerOnBusiness, false);
    await assert.rejects(generateBusinessKey(businessAdmin.id), /The team's owner is not on the Business plan/);

    await setTier(freeAdmin.email, "business");
    assert.equal((await http("GET", "/v1/dynqrcodes", { key: writer.key })).status, 200);

    const changes = await db.activityEntry.findMany({
      where: { teamId: team.id, action: "team.owner_changed" },
      orderBy: { id: "asc" },
    });
    assert.deepEqual(
      changes.map((e) => [e.actorId, e.actorLabel, e.target]),
      [
        [team.admin.id, team.admin.email, businessAdmin.email],
        [businessAdmin.id, businessAdmin.email, freeAdmin.email],
      ],
    );
  });

  it("a removal from a team ends the removed account's sessions (its session version moves)", async () => {
    const team = await makeTeam();
    const member = await team.addMember("writer");
    const before = (await db.user.findUniqueOrThrow({ where: { id: member.id } })).sessionVersion;
    await (
      await logIn(team.admin.email)
    )("team.removeMember", { userId: member.id });
    assert.equal((await db.user.findUniqueOrThrow({ where: { id: member.id } })).sessionVersion, before + 1);
  });
});
