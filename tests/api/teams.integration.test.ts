// Business teams: drafts and their review, roles, business keys and their revocation, tiers.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import {
  addMember,
  createTeam,
  generateBusinessKey,
  removeMember,
  revokeTeamKey,
  setMemberRole,
  teamOverview,
} from "../../server/teams/teams";
import { reviewDrafts } from "../../server/teams/draftReview";
import { actorFor, libraryPage } from "../../server/library/libraryItems";
import { setTier } from "../../server/accounts/users";
import { http, logIn, makeTeam, makeUser } from "../helpers";
import { env } from "../../server/platform/env";

/** The review queue on /business: the team library's drafts. */
const reviewQueue = async (userId: string) =>
  (await libraryPage(await actorFor(userId, "team", null), { drafts: true })).items;

type Created = { created: { code: string; team_id: string | null; status: string }[] };

describe("team drafts and review", () => {
  it("a writer's batch of 3 → 3 drafts that do not resolve; admins approve (page and API) or reject", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const batch = await http("POST", "/v1/dynqrcodes/batch", {
      key: writer.key,
      json: {
        dynqrcodes: [1, 2, 3].map((i) => ({ destination_url: `https://example.com/d${i}`, name: `Draft ${i}` })),
      },
    });
    assert.equal(batch.status, 201);
    const created = (batch.body as Created).created;
    assert.deepEqual(
      created.map((c) => [c.status, c.team_id]),
      Array(3).fill(["draft", team.id]),
    );
    for (const { code } of created) assert.equal((await http("GET", `/q/${code}`)).status, 404);
    const [first, second, third] = created.map((c) => c.code);

    // Individually attributed: the writer and the writer's key.
    const row = await db.dynamicCode.findFirstOrThrow({ where: { code: first } });
    const writerKey = await db.apiKey.findFirstOrThrow({ where: { userId: writer.user.id, live: true } });
    assert.equal(row.createdById, writer.user.id);
    assert.equal(row.apiKeyId, writerKey.id);

    const publish = await http("PATCH", `/v1/dynqrcodes/${first}`, { key: writer.key, json: { status: "active" } });
    assert.equal(publish.status, 403);
    assert.deepEqual(publish.body, { error: "Only a team admin can publish" });
    assert.equal(
      (await http("PATCH", `/v1/dynqrcodes/${first}`, { key: writer.key, json: { status: "paused" } })).status,
      200,
    );
    assert.equal(
      (await http("PATCH", `/v1/dynqrcodes/${first}`, { key: writer.key, json: { status: "draft" } })).status,
      200,
    );

    const adminPage = await logIn(team.admin.email);
    await adminPage("team.approve", { kind: "dynamic", id: first }); // the page's Approve
    const viaApi = await http("PATCH", `/v1/dynqrcodes/${second}`, { key: team.adminKey, json: { status: "active" } });
    assert.equal(viaApi.status, 200);
    for (const code of [first, second]) {
      const r = await http("GET", `/q/${code}`);
      assert.equal(r.status, 302, code);
      const reviewed = await db.dynamicCode.findFirstOrThrow({ where: { code } });
      assert.equal(reviewed.reviewedById, team.admin.id);
      assert.ok(reviewed.reviewedAt);
    }

    await adminPage("team.reject", { kind: "dynamic", id: third, reason: "Not ours" });
    assert.equal((await http("GET", `/q/${third}`)).status, 410);
    const list = await http("GET", "/v1/dynqrcodes", { key: writer.key });
    assert.ok(!list.text.includes(third));
    assert.equal(
      (await http("PATCH", `/v1/dynqrcodes/${third}`, { key: team.adminKey, json: { name: "x" } })).status,
      404,
    );
  });

  it("static items made with a business key are drafts until approved; a writer cannot review", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const r = await http("POST", "/v1/qrcodes", {
      key: writer.key,
      json: { url: "https://example.com/s", name: "Static draft" },
    });
    assert.equal(r.status, 201);
    const record = (r.body as { created: { qr_id: string }[] }).created[0];
    assert.ok(!("status" in record), "static records carry no status in the API");
    assert.equal((await db.staticCode.findUniqueOrThrow({ where: { id: record.qr_id } })).teamId, team.id);
    const queue = await reviewQueue(team.admin.id);
    assert.deepEqual(
      queue.map((d) => [d.kind, d.id, d.createdBy]),
      [["static", record.qr_id, writer.user.email]],
    );
    const writerPage = await logIn(writer.user.email);
    await assert.rejects(writerPage("team.approve", { kind: "static", id: record.qr_id }), /Only a team admin/);
    await (
      await logIn(team.admin.email)
    )("team.approve", { kind: "static", id: record.qr_id });
    assert.equal((await db.staticCode.findUniqueOrThrow({ where: { id: record.qr_id } })).reviewStatus, "active");
    assert.deepEqual(await reviewQueue(team.admin.id), []);

    // By hand on the page: a draft too, attributed to the writer.
    await writerPage("library.create", {
      scope: "team",
      kind: "dynamic",
      name: "Made by hand",
      url: "https://example.com/hand",
    });
    const [manual] = await reviewQueue(team.admin.id);
    assert.deepEqual(
      [manual.kind, manual.name, manual.status, manual.createdBy],
      ["dynamic", "Made by hand", "draft", writer.user.email],
    );
    assert.equal((await http("GET", `/q/${manual.id}`)).status, 404);
    const viewer = await team.addMember("viewer");
    await assert.rejects(
      (await logIn(viewer.email))("library.create", {
        scope: "team",
        kind: "static",
        name: "No",
        url: "https://example.com/no",
      }),
      /Viewers only read/,
    );
    // Approved above: a second approval says so (issue 39, point 5), it is not "No such draft".
    await assert.rejects(
      reviewDrafts(team.admin.id, "approve", [{ kind: "static", id: record.qr_id }]),
      /already approved by/,
    );
  });
});

describe("the review queue: pages, filters, bulk review", () => {
  it("a page of 20 drafts at most, filtered by kind and search; bulk review is all or nothing and only for admins", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const dynamics = await http("POST", "/v1/dynqrcodes/batch", {
      key: writer.key,
      json: {
        dynqrcodes: Array.from({ length: 22 }, (_, i) => ({
          destination_url: `https://example.com/queue/${i}`,
          name: `Queued ${i}`,
        })),
      },
    });
    assert.equal(dynamics.status, 201);
    const codes = (dynamics.body as Created).created.map((c) => c.code);
    const statics = await http("POST", "/v1/qrcodes/batch", {
      key: writer.key,
      json: { qrcodes: [1, 2].map((i) => ({ url: `https://example.com/flyer/${i}`, name: `Flyer ${i}` })) },
    });
    assert.equal(statics.status, 201);
    const [flyer1, flyer2] = (statics.body as { created: { qr_id: string }[] }).created.map((c) => c.qr_id);
    const adminPage = await logIn(team.admin.email);
    type Page = { items: { kind: string; id: string; name: string }[]; page: number; pages: number; total: number };
    const queue = (input: object) =>
      adminPage.query("library.page", { scope: "team", drafts: true, ...input }) as Promise<Page>;

    const first = await queue({});
    assert.deepEqual([first.items.length, first.pages, first.total], [20, 2, 24]);
    assert.equal((await queue({ page: 2 })).items.length, 4);
    assert.deepEqual((await queue({ kind: "static" })).items.map((i) => i.id).sort(), [flyer1, flyer2].sort());
    assert.equal((await queue({ kind: "dynamic" })).total, 22);
    assert.deepEqual(
      (await queue({ search: "Queued 1" })).items.map((i) => i.name).sort(),
      ["Queued 1", ...Array.from({ length: 10 }, (_, i) => `Queued 1${i}`)].sort(),
    );

    // Not an admin: refused, nothing changed.
    const writerPage = await logIn(writer.user.email);
    await assert.rejects(
      writerPage("team.review", { decision: "approve", items: [{ kind: "dynamic", id: codes[0] }] }),
      /Only a team admin/,
    );
    assert.equal((await http("GET", `/q/${codes[0]}`)).status, 404);

    // One of them no longer a draft (approved meanwhile): none of the others is approved.
    await adminPage("team.approve", { kind: "dynamic", id: codes[5] });
    await assert.rejects(
      adminPage("team.review", {
        decision: "approve",
        items: [codes[1], codes[5], codes[2]].map((id) => ({ kind: "dynamic", id })),
      }),
      /^Error: 1 of 3 selected drafts is no longer a draft in your team: nothing was changed$/,
    );
    for (const code of [codes[1], codes[2]]) assert.equal((await http("GET", `/q/${code}`)).status, 404);
    // Another team's draft cannot be slipped in either.
    const elsewhere = await makeTeam();
    const foreign = await http("POST", "/v1/qrcodes", {
      key: (await elsewhere.addWriter()).key,
      json: { url: "https://example.com/foreign", name: "Foreign" },
    });
    const foreignId = (foreign.body as { created: { qr_id: string }[] }).created[0].qr_id;
    await assert.rejects(
      adminPage("team.review", {
        decision: "reject",
        items: [
          { kind: "static", id: flyer1 },
          { kind: "static", id: foreignId },
        ],
        reason: "Duplicates",
      }),
      /nothing was changed/,
    );
    assert.equal((await db.staticCode.findUniqueOrThrow({ where: { id: flyer1 } })).reviewStatus, "draft");
    assert.equal((await db.staticCode.findUniqueOrThrow({ where: { id: foreignId } })).reviewStatus, "draft");
    await assert.rejects(adminPage("team.review", { decision: "approve", items: [] }), /Select at least one draft/);

    // Approved together: each resolves, reviewed by the admin.
    assert.deepEqual(
      await adminPage("team.review", {
        decision: "approve",
        items: [
          { kind: "dynamic", id: codes[1] },
          { kind: "dynamic", id: codes[2] },
          { kind: "static", id: flyer1 },
        ],
      }),
      { reviewed: 3 },
    );
    for (const code of [codes[1], codes[2]]) {
      assert.equal((await http("GET", `/q/${code}`)).status, 302);
      assert.equal((await db.dynamicCode.findFirstOrThrow({ where: { code } })).reviewedById, team.admin.id);
    }
    assert.equal((await db.staticCode.findUniqueOrThrow({ where: { id: flyer1 } })).reviewStatus, "active");
    // Rejected together: a dynamic code's record stays, deleted (410); a static one is gone.
    assert.deepEqual(
      await adminPage("team.review", {
        decision: "reject",
        items: [
          { kind: "dynamic", id: codes[3] },
          { kind: "static", id: flyer2 },
        ],
        reason: "Duplicates",
      }),
      { reviewed: 2 },
    );
    assert.equal((await http("GET", `/q/${codes[3]}`)).status, 410);
    assert.equal(await db.staticCode.findUnique({ where: { id: flyer2 } }), null);
    assert.equal((await queue({})).total, 24 - 1 - 3 - 2);
  });
});

describe("team members and business keys", () => {
  it("removing a member or lowering them to viewer revokes their business key at once", async () => {
    const team = await makeTeam();
    const a = await team.addWriter();
    const b = await team.addWriter();
    assert.equal((await http("GET", "/v1/qrcodes", { key: a.key })).status, 200);
    await setMemberRole(team.admin.id, a.user.id, "viewer");
    assert.deepEqual((await http("GET", "/v1/qrcodes", { key: a.key })).body, { error: "API key has been revoked" });
    await assert.rejects(generateBusinessKey(a.user.id), /Viewers hold no business key/);
    await removeMember(team.admin.id, b.user.id);
    const r = await http("GET", "/v1/qrcodes", { key: b.key });
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, { error: "API key has been revoked" });
  });

  it("an admin revokes a teammate's key; a writer sees and revokes only their own", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const other = await team.addWriter();
    const adminView = (await teamOverview(team.admin.id))!;
    assert.deepEqual(
      adminView.keys.map((k) => k.email).sort(),
      [team.admin.email, writer.user.email, other.user.email].sort(),
    );
    assert.ok(adminView.keys.every((k) => /^qrb_\w{4}…\w{4}$/.test(k.display)));
    const writerView = (await teamOverview(writer.user.id))!;
    assert.deepEqual(
      writerView.keys.map((k) => k.email),
      [writer.user.email],
    );

    const adminKeyId = adminView.keys.find((k) => k.email === team.admin.email)!.id;
    await assert.rejects(revokeTeamKey(writer.user.id, adminKeyId), /No such live key/);
    const writerKeyId = adminView.keys.find((k) => k.email === writer.user.email)!.id;
    await revokeTeamKey(team.admin.id, writerKeyId);
    assert.deepEqual((await http("GET", "/v1/dynqrcodes", { key: writer.key })).body, {
      error: "API key has been revoked",
    });
    assert.equal((await http("GET", "/v1/dynqrcodes", { key: other.key })).status, 200);
  });

  it("a team keeps an admin, its owner stays one, and an account is in one team at most", async () => {
    const team = await makeTeam();
    await assert.rejects(setMemberRole(team.admin.id, team.admin.id, "writer"), /owner stays an admin/);
    await assert.rejects(removeMember(team.admin.id, team.admin.id), /owner stays an admin/);
    const second = await team.addMember("admin");
    await setMemberRole(second.id, second.id, "writer"); // another admin remains: allowed
    const elsewhere = await makeTeam();
    await assert.rejects(addMember(elsewhere.admin.id, second.email, "writer"), /already belongs to a team/);
    const stranger = await makeUser("business");
    await assert.rejects(removeMember(stranger.id, second.id), /not in a team/);
    await assert.rejects(removeMember(elsewhere.admin.id, second.id), /No such member/);
    const pro = await makeUser("pro");
    await assert.rejects(createTeam(pro.id, "Not allowed"), /Business plan/);
  });

  it("a team's keys are 403 while its owner is off the Business plan, and work again after", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    await setTier(team.admin.email, "pro");
    for (const key of [team.adminKey, writer.key]) {
      const r = await http("GET", "/v1/dynqrcodes", { key });
      assert.equal(r.status, 403);
      assert.deepEqual(r.body, { error: "API access requires a Pro or Business plan" });
    }
    await setTier(team.admin.email, "business");
    assert.equal((await http("GET", "/v1/dynqrcodes", { key: writer.key })).status, 200);
  });

  it("a new business key waits out the activation delay with a Retry-After", async () => {
    const team = await makeTeam();
    const user = await team.addMember("writer");
    env.keyActivationDelaySeconds = 30;
    const { key, summary } = await generateBusinessKey(user.id);
    env.keyActivationDelaySeconds = 0;
    assert.equal(summary.active, false);
    const r = await http("GET", "/v1/qrcodes", { key });
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, { error: "API key is not active yet" });
    const retry = Number(r.headers.get("retry-after"));
    assert.ok(retry >= 25 && retry <= 30, `Retry-After ${retry}`);
  });
});
