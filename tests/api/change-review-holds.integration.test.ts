// Review covers changes to published team codes (contract Part 3): a writer's change to where a
// published code leads waits as its pending_change (202) while /q keeps serving what an admin
// approved, on the API and on the pages; drafts, admins and personal codes change at once; a
// writer cannot delete a published code. The admins' decisions: change-review-decisions.integration.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { http, logIn, makeTeam, personalKey } from "../helpers";
import { location, published, teamLog, updatedEvents, writerDraft, type Dyn } from "./change-review";

describe("review covers changes to published team codes", () => {
  it("a writer's PATCH of a published code: 202, pending_change set, the live fields and /q unchanged, no webhook", async () => {
    const { team, writer, code } = await published();
    const before = (await http("GET", "/v1/dynqrcodes", { key: writer.key })).body as { dynqrcodes: Dyn[] };
    assert.equal(before.dynqrcodes[0].pending_change, null);
    const eventsBefore = (await updatedEvents(code)).length;

    const patch = await http("PATCH", `/v1/dynqrcodes/${code}`, {
      key: writer.key,
      json: { destination_url: "https://example.com/elsewhere", name: "Menu (winter)" },
    });
    assert.equal(patch.status, 202);
    const record = patch.body as Dyn;
    assert.equal(record.destination_url, "https://example.com/approved", "live destination unchanged");
    assert.equal(record.name, "Menu (winter)", "name applies at once");
    assert.equal(record.status, "active");
    assert.deepEqual(record.pending_change!.fields, { destination_url: "https://example.com/elsewhere" });
    assert.equal(record.pending_change!.by, writer.user.email);
    assert.ok(Math.abs(record.pending_change!.created_at - Date.now() / 1000) < 60);
    assert.equal(await location(code), "https://example.com/approved");
    // The list shows it too; the name change was an update, the held destination was not.
    const listed = ((await http("GET", "/v1/dynqrcodes", { key: team.adminKey })).body as { dynqrcodes: Dyn[] })
      .dynqrcodes[0];
    assert.deepEqual(listed.pending_change, record.pending_change);
    const events = await updatedEvents(code);
    assert.equal(events.length, eventsBefore + 1);
    assert.equal(JSON.parse(events.at(-1)!.payload).data.destination_url, "https://example.com/approved");

    // Only held fields: no event at all, and updated_at stays.
    const held = await http("PATCH", `/v1/dynqrcodes/${code}`, {
      key: writer.key,
      json: { utm: { source: "flyer" }, password: "open sesame" },
    });
    assert.equal(held.status, 202);
    const heldRecord = held.body as Dyn;
    assert.deepEqual(
      heldRecord.pending_change!.fields,
      { utm: { source: "flyer" }, password_set: true },
      "a later change replaces the pending one",
    );
    assert.equal(heldRecord.utm, null);
    assert.equal(heldRecord.password_protected, false);
    assert.equal(heldRecord.updated_at, record.updated_at);
    assert.ok(!held.text.includes("open sesame"));
    assert.equal((await updatedEvents(code)).length, eventsBefore + 1);

    // The log: the name change with before and after, each held change with the live values and the asked ones.
    const log = await teamLog(team.id, "code.change_requested");
    assert.deepEqual(
      log.map((e) => [e.target, e.actor, e.before, e.after]),
      [
        [
          code,
          writer.user.email,
          { destination_url: "https://example.com/approved" },
          { destination_url: "https://example.com/elsewhere" },
        ],
        [
          code,
          writer.user.email,
          { utm: null, password_protected: false },
          { utm: { source: "flyer" }, password_set: true },
        ],
      ],
    );
    const named = (await teamLog(team.id, "code.updated")).filter(
      (e) => e.target === code && e.actor === writer.user.email,
    );
    assert.deepEqual(
      named.map((e) => [e.before, e.after]),
      [[{ name: "Menu" }, { name: "Menu (winter)" }]],
    );
  });

  it("stopping a published code applies at once; a bad URL is 400 and holds nothing; a replay keeps 202", async () => {
    const { writer, code } = await published();
    const bad = await http("PATCH", `/v1/dynqrcodes/${code}`, {
      key: writer.key,
      json: { destination_url: "javascript:alert(1)" },
    });
    assert.equal(bad.status, 400);
    assert.equal((await db.dynamicCode.findFirstOrThrow({ where: { code } })).pendingChange, null);

    const headers = { "Idempotency-Key": `held-${code}` };
    const first = await http("PATCH", `/v1/dynqrcodes/${code}`, {
      key: writer.key,
      json: { destination_url: "https://example.com/b" },
      headers,
    });
    const again = await http("PATCH", `/v1/dynqrcodes/${code}`, {
      key: writer.key,
      json: { destination_url: "https://example.com/b" },
      headers,
    });
    assert.equal(first.status, 202);
    assert.equal(again.status, 202);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal(again.text, first.text);

    const paused = await http("PATCH", `/v1/dynqrcodes/${code}`, { key: writer.key, json: { status: "paused" } });
    assert.equal(paused.status, 200);
    assert.equal((paused.body as Dyn).status, "paused");
    assert.equal((await http("GET", `/q/${code}`)).status, 404);
    // Paused (or back to draft) it stays published: the destination still waits for review.
    assert.equal(
      (await http("PATCH", `/v1/dynqrcodes/${code}`, { key: writer.key, json: { status: "draft" } })).status,
      200,
    );
    const still = await http("PATCH", `/v1/dynqrcodes/${code}`, {
      key: writer.key,
      json: { destination_url: "https://example.com/c" },
    });
    assert.equal(still.status, 202);
    assert.equal((still.body as Dyn).destination_url, "https://example.com/approved");
  });

  it("drafts never published, admins and personal codes change at once (200, pending_change null)", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const draft = await writerDraft(writer.key);
    const mine = await http("PATCH", `/v1/dynqrcodes/${draft.code}`, {
      key: writer.key,
      json: { destination_url: "https://example.com/b" },
    });
    assert.equal(mine.status, 200);
    assert.equal((mine.body as Dyn).destination_url, "https://example.com/b");
    assert.equal((mine.body as Dyn).pending_change, null);
    // A code the writer paused straight from draft was never published either.
    assert.equal(
      (await http("PATCH", `/v1/dynqrcodes/${draft.code}`, { key: writer.key, json: { status: "paused" } })).status,
      200,
    );
    assert.equal(
      (
        await http("PATCH", `/v1/dynqrcodes/${draft.code}`, {
          key: writer.key,
          json: { destination_url: "https://example.com/c" },
        })
      ).status,
      200,
    );

    const { team: t2, code } = await published();
    const admin = await http("PATCH", `/v1/dynqrcodes/${code}`, {
      key: t2.adminKey,
      json: { destination_url: "https://example.com/admin" },
    });
    assert.equal(admin.status, 200);
    assert.equal(await location(code), "https://example.com/admin");

    const { key } = await personalKey("pro");
    const own = (
      (await http("POST", "/v1/dynqrcodes", { key, json: { name: "P", destination_url: "https://example.com/p" } }))
        .body as { created: Dyn[] }
    ).created[0];
    assert.equal(own.pending_change, null);
    const patched = await http("PATCH", `/v1/dynqrcodes/${own.code}`, {
      key,
      json: { destination_url: "https://example.com/q" },
    });
    assert.equal(patched.status, 200);
    assert.equal((patched.body as Dyn).pending_change, null);
  });

  it("a writer cannot delete a published code (dynamic or static); drafts they can", async () => {
    const { team, writer, code } = await published();
    const refused = await http("DELETE", `/v1/dynqrcodes/${code}`, { key: writer.key });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { error: "Only a team admin can delete a published code" });
    assert.equal(await location(code), "https://example.com/approved");
    const page = await logIn(writer.user.email);
    await assert.rejects(
      page("library.remove", { scope: "team", kind: "dynamic", id: code }),
      /Only a team admin can delete a published code/,
    );

    const statics = (
      (
        await http("POST", "/v1/qrcodes/batch", {
          key: writer.key,
          json: {
            qrcodes: [
              { name: "S1", url: "https://example.com/1" },
              { name: "S2", url: "https://example.com/2" },
            ],
          },
        })
      ).body as { created: { qr_id: string }[] }
    ).created;
    const admin = await logIn(team.admin.email);
    await admin("team.approve", { kind: "static", id: statics[0].qr_id });
    const staticRefused = await http("DELETE", `/v1/qrcodes/${statics[0].qr_id}`, { key: writer.key });
    assert.equal(staticRefused.status, 403);
    assert.deepEqual(staticRefused.body, { error: "Only a team admin can delete a published code" });
    assert.equal(
      (await http("DELETE", `/v1/qrcodes/${statics[1].qr_id}`, { key: writer.key })).status,
      200,
      "a draft is still the writer's to delete",
    );

    const draft = await writerDraft(writer.key);
    assert.equal((await http("DELETE", `/v1/dynqrcodes/${draft.code}`, { key: writer.key })).status, 200);
    assert.equal(
      (await http("DELETE", `/v1/dynqrcodes/${code}`, { key: team.adminKey })).status,
      200,
      "an admin deletes it",
    );
  });

  it("the pages' edit of a published code is held the same way", async () => {
    const { writer, code } = await published();
    const page = await logIn(writer.user.email);
    const result = (await page("library.update", {
      scope: "team",
      patch: { code, destination_url: "https://example.com/from-page" },
    })) as { record: Dyn; held: boolean };
    assert.equal(result.held, true);
    assert.equal(result.record.destination_url, "https://example.com/approved");
    assert.deepEqual(result.record.pending_change!.fields, { destination_url: "https://example.com/from-page" });
    assert.equal(await location(code), "https://example.com/approved");
  });
});
