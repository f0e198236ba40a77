// Changing records (contract Part 3, "Reading, finding and changing in bulk"): batch PATCH of
// both kinds all or nothing (read back), PATCH of a static code, a writer's held-back items, and
// one webhook event per changed record (the outbox). One record, metadata and external_id:
// records-fields.backends.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { http, makeTeam, personalKey } from "../helpers";
import { create, DYNAMIC, idOf, STATIC, type Rec } from "./records";

const eventsOf = (type: string, id: string, field: "qr_id" | "code") =>
  db.webhookEvent
    .findMany({ where: { type } })
    .then((events) => events.filter((e) => JSON.parse(e.payload).data[field] === id));
const subscribe = async (key: string) =>
  assert.equal(
    (
      await http("POST", "/v1/webhooks", {
        key,
        json: { url: "https://93.184.215.14/hooks", events: ["qrcode.updated", "dynqrcode.updated"] },
      })
    ).status,
    201,
  );

for (const kind of [STATIC, DYNAMIC]) {
  describe(`${kind.path}: batch PATCH`, () => {
    it("PATCH batch: every change applied in order, one event per record; one bad item changes nothing", async () => {
      const { key } = await personalKey();
      await subscribe(key);
      const recs = await create(kind, key, [{}, {}, {}]);
      const type = kind === STATIC ? "qrcode.updated" : "dynqrcode.updated";
      const ok = await http("PATCH", `${kind.path}/batch`, {
        key,
        json: {
          [kind.list]: recs.map((rec, i) => ({
            [kind.id]: idOf(kind, rec),
            [kind.url]: `https://example.com/new/${i}`,
            metadata: { i: String(i) },
          })),
        },
      });
      assert.equal(ok.status, 200, ok.text);
      const updated = (ok.body as { updated: Rec[] }).updated;
      assert.deepEqual(
        updated.map((r) => r[kind.url]),
        recs.map((_, i) => `https://example.com/new/${i}`),
      );
      for (const rec of updated)
        assert.deepEqual((await http("GET", `${kind.path}/${idOf(kind, rec)}`, { key })).body, rec);
      for (const rec of recs) assert.equal((await eventsOf(type, idOf(kind, rec), kind.id)).length, 1);

      const unknown = kind === STATIC ? "qr_0000000000000000000000" : "zzzzzzzz";
      const bad = await http("PATCH", `${kind.path}/batch`, {
        key,
        json: {
          [kind.list]: [
            { [kind.id]: idOf(kind, recs[0]), name: "Changed" },
            { [kind.id]: unknown, name: "Nope" },
            { [kind.id]: idOf(kind, recs[1]), [kind.url]: "ftp://example.com" },
          ],
        },
      });
      assert.equal(bad.status, 400);
      assert.equal((bad.body as { errors: { index: number }[] }).errors[0].index, 2);
      const missing = await http("PATCH", `${kind.path}/batch`, {
        key,
        json: {
          [kind.list]: [
            { [kind.id]: idOf(kind, recs[0]), name: "Changed" },
            { [kind.id]: unknown, name: "Nope" },
          ],
        },
      });
      assert.deepEqual([missing.status, missing.body], [404, { errors: [{ index: 1, error: kind.missing }] }]);
      assert.equal(((await http("GET", `${kind.path}/${idOf(kind, recs[0])}`, { key })).body as Rec).name, "Item 0");
      for (const rec of recs)
        assert.equal((await eventsOf(type, idOf(kind, rec), kind.id)).length, 1, "no event of a refused batch");
      const twice = await http("PATCH", `${kind.path}/batch`, {
        key,
        json: {
          [kind.list]: [
            { [kind.id]: idOf(kind, recs[0]), name: "a" },
            { [kind.id]: idOf(kind, recs[0]), name: "b" },
          ],
        },
      });
      assert.equal(twice.status, 400);
      const sizes = [[], Array.from({ length: 51 }, () => ({ [kind.id]: idOf(kind, recs[0]), name: "a" }))];
      for (const items of sizes)
        assert.equal((await http("PATCH", `${kind.path}/batch`, { key, json: { [kind.list]: items } })).status, 400);
    });
  });
}

describe("static PATCH", () => {
  it("changes url, name and style; team data logged with before and after; 404 elsewhere; If-Unmodified-Since; qrcode.updated", async () => {
    const team = await makeTeam();
    await subscribe(team.adminKey);
    const [rec] = await create(STATIC, team.adminKey, [{}]);
    const url = `/v1/qrcodes/${rec.qr_id}`;
    const r = await http("PATCH", url, {
      key: team.adminKey,
      json: { url: "https://example.com/other", name: "Renamed", style: { foreground: "#112233" } },
    });
    assert.equal(r.status, 200, r.text);
    const after = r.body as Rec & { style: object };
    assert.equal(after.url, "https://example.com/other");
    assert.deepEqual(after.style, { foreground: "#112233" });
    const entry = await db.activityEntry.findFirstOrThrow({
      where: { teamId: team.id, action: "code.updated", target: rec.qr_id },
    });
    const detail = JSON.parse(entry.detail!);
    assert.deepEqual(detail.before.url, "https://example.com/0");
    assert.deepEqual(detail.after.name, "Renamed");
    assert.equal((await eventsOf("qrcode.updated", rec.qr_id!, "qr_id")).length, 1);
    const stale = await http("PATCH", url, {
      key: team.adminKey,
      json: { name: "Late" },
      headers: { "if-unmodified-since": new Date((after.updated_at - 10) * 1000).toUTCString() },
    });
    assert.equal(stale.status, 412);
    const empty = await http("PATCH", url, { key: team.adminKey, json: {} });
    assert.deepEqual(
      [empty.status, empty.body],
      [400, { error: "Send at least one of type, url, content, name, style, style_preset, metadata, external_id" }],
    );
    const bad = await http("PATCH", url, { key: team.adminKey, json: { url: "javascript:alert(1)" } });
    assert.equal(bad.status, 400);
    const elsewhere = await personalKey();
    assert.equal((await http("PATCH", url, { key: elsewhere.key, json: { name: "x" } })).status, 404);
    assert.equal(((await http("GET", url, { key: team.adminKey })).body as Rec).name, "Renamed");
  });

  it("an Idempotency-Key replays the first answer", async () => {
    const { key } = await personalKey();
    const [rec] = await create(STATIC, key, [{}]);
    const send = () =>
      http("PATCH", `/v1/qrcodes/${rec.qr_id}`, {
        key,
        json: { name: "Once" },
        headers: { "idempotency-key": "rename-1" },
      });
    const first = await send();
    const again = await send();
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(again.body, first.body);
  });
});

describe("batch PATCH by a writer of published team codes", () => {
  it("held items come back with their pending_change; name applies at once; events only for applied changes", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    await subscribe(team.adminKey);
    const recs = await create(DYNAMIC, writer.key, [{}, {}]);
    for (const rec of recs)
      assert.equal(
        (await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key: team.adminKey, json: { status: "active" } })).status,
        200,
      );
    const before = await Promise.all(
      recs.map(async (r) => (await eventsOf("dynqrcode.updated", r.code!, "code")).length),
    );
    const r = await http("PATCH", "/v1/dynqrcodes/batch", {
      key: writer.key,
      json: {
        dynqrcodes: [
          { code: recs[0].code, destination_url: "https://example.com/held" },
          { code: recs[1].code, name: "Renamed", metadata: { k: "v" } },
        ],
      },
    });
    assert.equal(r.status, 200, r.text);
    const [held, renamed] = (r.body as { updated: Rec[] }).updated;
    assert.equal(held.destination_url, "https://example.com/0", "live destination unchanged");
    assert.deepEqual(held.pending_change!.fields, { destination_url: "https://example.com/held" });
    assert.equal(renamed.name, "Renamed");
    assert.deepEqual(renamed.metadata, { k: "v" });
    assert.equal(renamed.pending_change, null);
    assert.equal((await eventsOf("dynqrcode.updated", recs[0].code!, "code")).length, before[0], "held: no event");
    assert.equal((await eventsOf("dynqrcode.updated", recs[1].code!, "code")).length, before[1] + 1);
    assert.equal((await http("GET", `/q/${recs[0].code}`)).headers.get("location"), "https://example.com/0");
    // A writer may not publish: the batch names the item, and nothing changed.
    const publish = await http("PATCH", "/v1/dynqrcodes/batch", {
      key: writer.key,
      json: {
        dynqrcodes: [
          { code: recs[1].code, name: "Again" },
          { code: recs[0].code, status: "active", name: "x" },
        ],
      },
    });
    assert.equal(publish.status, 200, "active again is no change of status");
    const draft = (await create(DYNAMIC, writer.key, [{}]))[0];
    const refused = await http("PATCH", "/v1/dynqrcodes/batch", {
      key: writer.key,
      json: {
        dynqrcodes: [
          { code: recs[1].code, name: "Never" },
          { code: draft.code, status: "active" },
        ],
      },
    });
    assert.deepEqual(
      [refused.status, refused.body],
      [403, { errors: [{ index: 1, error: "Only a team admin can publish" }] }],
    );
    assert.equal(
      ((await http("GET", `/v1/dynqrcodes/${recs[1].code}`, { key: writer.key })).body as Rec).name,
      "Again",
    );
  });
});
