// Reading one record and changing many (contract Part 3, "Reading, finding and changing in bulk"):
// GET and PATCH of one code, metadata and external_id on both kinds, batch PATCH all or nothing
// (read back), a writer's held-back items, and one webhook event per changed record (the outbox).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { db } from "../../server/platform/db";
import { http, makeTeam, personalKey } from "../helpers";

type Rec = {
  qr_id?: string;
  code?: string;
  url?: string;
  destination_url?: string;
  name: string;
  metadata: Record<string, string>;
  external_id: string | null;
  updated_at: number;
  pending_change?: { fields: Record<string, unknown> } | null;
};
type Kind = { path: string; list: string; id: "qr_id" | "code"; url: "url" | "destination_url"; missing: string };
const STATIC: Kind = { path: "/v1/qrcodes", list: "qrcodes", id: "qr_id", url: "url", missing: "QR code not found" };
const DYNAMIC: Kind = {
  path: "/v1/dynqrcodes",
  list: "dynqrcodes",
  id: "code",
  url: "destination_url",
  missing: "Dynamic QR code not found",
};

async function create(kind: Kind, key: string, items: object[]): Promise<Rec[]> {
  const json = {
    [kind.list]: items.map((extra, i) => ({ name: `Item ${i}`, [kind.url]: `https://example.com/${i}`, ...extra })),
  };
  const r = await http("POST", `${kind.path}/batch`, { key, json });
  assert.equal(r.status, 201, r.text);
  return (r.body as { created: Rec[] }).created;
}
const idOf = (kind: Kind, rec: Rec) => rec[kind.id]!;
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
  describe(`${kind.path}: one record, metadata, external_id, batch PATCH`, () => {
    it("GET one: 200 with the record as listed; unknown, another library's or deleted: 404", async () => {
      const { key } = await personalKey();
      const other = await personalKey();
      const [rec] = await create(kind, key, [{ metadata: { order: "4711" }, external_id: "ext-1" }]);
      assert.deepEqual(rec.metadata, { order: "4711" });
      assert.equal(rec.external_id, "ext-1");
      const got = await http("GET", `${kind.path}/${idOf(kind, rec)}`, { key });
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, rec);
      const listed = (await http("GET", kind.path, { key })).body as Record<string, Rec[]>;
      assert.deepEqual(listed[kind.list][0], rec);
      for (const [k, id] of [
        [other.key, idOf(kind, rec)],
        [key, kind === STATIC ? "qr_0000000000000000000000" : "zzzzzzzz"],
      ]) {
        const r = await http("GET", `${kind.path}/${id}`, { key: k });
        assert.equal(r.status, 404);
        assert.deepEqual(r.body, { error: kind.missing });
      }
      assert.equal((await http("DELETE", `${kind.path}/${idOf(kind, rec)}`, { key })).status, 200);
      assert.equal((await http("GET", `${kind.path}/${idOf(kind, rec)}`, { key })).status, 404);
      // A deleted code's external_id is free again.
      assert.equal((await create(kind, key, [{ external_id: "ext-1" }]))[0].external_id, "ext-1");
    });

    it("a record without metadata shows {} and external_id null; PATCH sets, replaces and clears them", async () => {
      const { key } = await personalKey();
      const [rec] = await create(kind, key, [{}]);
      assert.deepEqual(rec.metadata, {});
      assert.equal(rec.external_id, null);
      const url = `${kind.path}/${idOf(kind, rec)}`;
      const set = await http("PATCH", url, {
        key,
        json: { metadata: { a: "1", b: "2" }, external_id: "crm-9", name: "New" },
      });
      assert.equal(set.status, 200, set.text);
      assert.deepEqual((set.body as Rec).metadata, { a: "1", b: "2" });
      assert.equal((set.body as Rec).external_id, "crm-9");
      assert.equal((set.body as Rec).name, "New");
      const replaced = await http("PATCH", url, { key, json: { metadata: { c: "3" } } });
      assert.deepEqual((replaced.body as Rec).metadata, { c: "3" }, "metadata is replaced whole");
      assert.equal((replaced.body as Rec).external_id, "crm-9", "absent: unchanged");
      const cleared = await http("PATCH", url, { key, json: { metadata: null, external_id: null } });
      assert.deepEqual((cleared.body as Rec).metadata, {});
      assert.equal((cleared.body as Rec).external_id, null);
      assert.deepEqual((await http("GET", url, { key })).body, cleared.body);
      // The export: one JSON column, and the external id.
      const csv = await http("GET", `${kind.path}/export`, { key });
      assert.equal(csv.status, 200);
      await http("PATCH", url, { key, json: { metadata: { order: "4711" }, external_id: "x" } });
      const rows = parse((await http("GET", `${kind.path}/export`, { key })).text, { columns: true }) as Record<
        string,
        string
      >[];
      assert.deepEqual(JSON.parse(rows[0].metadata), { order: "4711" });
      assert.equal(rows[0].external_id, "x");
    });

    it("refuses bad metadata and external_id with the field's rule, changing nothing", async () => {
      const { key } = await personalKey();
      const [rec] = await create(kind, key, [{ metadata: { keep: "me" } }]);
      const url = `${kind.path}/${idOf(kind, rec)}`;
      const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"]));
      const huge = Object.fromEntries(Array.from({ length: 15_000 }, (_, i) => [`k${i}`, "v"]));
      const cases: [unknown, string][] = [
        [{ metadata: many }, "metadata must hold at most 20 keys"],
        [{ metadata: huge }, "metadata must hold at most 20 keys"],
        [{ metadata: { a: "x".repeat(501) } }, "metadata.a must be at most 500 characters"],
        [{ metadata: { ["k".repeat(41)]: "v" } }, "metadata keys must be 1 to 40 characters, no control characters"],
        [{ metadata: { "": "v" } }, "metadata keys must be 1 to 40 characters, no control characters"],
        [{ metadata: { a: 1 } }, "metadata.a must be a string"],
        [
          { metadata: ["a"] },
          "metadata must be an object of at most 20 keys (1 to 40 characters) with string values of at most 500 characters",
        ],
        [{ external_id: "x".repeat(201) }, "external_id must be 1 to 200 printable characters"],
        [{ external_id: "" }, "external_id must be 1 to 200 printable characters"],
        [{ external_id: "tab\there" }, "external_id must be 1 to 200 printable characters"],
        [{ external_id: "zero\u200bwidth" }, "external_id must be 1 to 200 printable characters"],
      ];
      for (const [json, error] of cases) {
        const r = await http("PATCH", url, { key, json });
        assert.equal(r.status, 400, JSON.stringify(json).slice(0, 80));
        assert.deepEqual(r.body, { error });
      }
      const created = await http("POST", kind.path, {
        key,
        json: { name: "x", [kind.url]: "https://example.com/", metadata: many },
      });
      assert.deepEqual([created.status, created.body], [400, { error: "metadata must hold at most 20 keys" }]);
      assert.equal((await create(kind, key, [{ external_id: "é".repeat(200) }]))[0].external_id, "é".repeat(200));
      assert.deepEqual(((await http("GET", url, { key })).body as Rec).metadata, { keep: "me" });
    });

    it("409 for a used external_id: single create, PATCH, within a batch and against the library, by index", async () => {
      const { key } = await personalKey();
      const [a, b] = await create(kind, key, [{ external_id: "A" }, {}]);
      const single = await http("POST", kind.path, {
        key,
        json: { name: "x", [kind.url]: "https://example.com/", external_id: "A" },
      });
      assert.deepEqual([single.status, single.body], [409, { error: "external_id already used: A" }]);
      const patch = await http("PATCH", `${kind.path}/${idOf(kind, b)}`, { key, json: { external_id: "A" } });
      assert.deepEqual([patch.status, patch.body], [409, { error: "external_id already used: A" }]);
      // Its own external_id again is no conflict.
      assert.equal(
        (await http("PATCH", `${kind.path}/${idOf(kind, a)}`, { key, json: { external_id: "A" } })).status,
        200,
      );
      const items = (ids: (string | undefined)[]) => ({
        [kind.list]: ids.map((external_id, i) => ({ name: `n${i}`, [kind.url]: "https://example.com/", external_id })),
      });
      const inBatch = await http("POST", `${kind.path}/batch`, { key, json: items(["B", "C", "B"]) });
      assert.deepEqual(
        [inBatch.status, inBatch.body],
        [409, { errors: [{ index: 2, error: "external_id already used: B" }] }],
      );
      const existing = await http("POST", `${kind.path}/batch`, { key, json: items(["D", "A"]) });
      assert.deepEqual(
        [existing.status, existing.body],
        [409, { errors: [{ index: 1, error: "external_id already used: A" }] }],
      );
      const patchBatch = await http("PATCH", `${kind.path}/batch`, {
        key,
        json: { [kind.list]: [{ [kind.id]: idOf(kind, b), external_id: "A" }] },
      });
      assert.deepEqual(
        [patchBatch.status, patchBatch.body],
        [409, { errors: [{ index: 0, error: "external_id already used: A" }] }],
      );
      const listed = (await http("GET", kind.path, { key })).body as Record<string, Rec[]>;
      assert.equal(listed[kind.list].length, 2, "no refused batch created anything");
      // Another library may use the same external_id.
      const other = await personalKey();
      assert.equal((await create(kind, other.key, [{ external_id: "A" }]))[0].external_id, "A");
    });

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
