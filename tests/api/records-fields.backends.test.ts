// Reading one record (contract Part 3, "Reading, finding and changing in bulk"): GET of one code,
// metadata and external_id on both kinds (set, replaced, cleared, exported, refused with their
// rules, 409 for a used external_id). Changing them, one or many: records-patch.backends.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { http, personalKey } from "../helpers";
import { create, DYNAMIC, idOf, STATIC, type Rec } from "./records";

for (const kind of [STATIC, DYNAMIC]) {
  describe(`${kind.path}: one record, metadata, external_id`, () => {
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
  });
}
