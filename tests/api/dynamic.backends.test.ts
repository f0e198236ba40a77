// The dynamic QR API, per the contract's Records and Routes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { BASE_URL, http, personalKey } from "../helpers";

type Dyn = {
  code: string;
  short_url: string;
  destination_url: string;
  name: string;
  style: object;
  status: string;
  team_id: string | null;
  created_at: number;
  updated_at: number;
  pending_change?: unknown;
};
const item = (i: number) => ({ destination_url: `https://example.com/d/${i}`, name: `Dynamic ${i}` });

async function createOne(key: string, body: object = item(1)): Promise<Dyn> {
  const r = await http("POST", "/v1/dynqrcodes", { key, json: body });
  assert.equal(r.status, 201, r.text);
  return (r.body as { created: Dyn[] }).created[0];
}

describe("dynamic QR codes", () => {
  it("POST /v1/dynqrcodes → 201 {created: [record]}, active, team_id null, short_url on /q/", async () => {
    const { key } = await personalKey();
    const r = await http("POST", "/v1/dynqrcodes", { key, json: item(1) });
    assert.equal(r.status, 201);
    const { created } = r.body as { created: Dyn[] };
    assert.equal(created.length, 1);
    const rec = created[0];
    assert.deepEqual(Object.keys(rec).sort(), [
      "code",
      "content",
      "created_at",
      "destination_url",
      "domain",
      "expired_url",
      "expires_at",
      "external_id",
      "metadata",
      "name",
      "password_protected",
      "pending_change",
      "short_url",
      "status",
      "style",
      "targets",
      "team_id",
      "type",
      "updated_at",
      "utm",
    ]);
    assert.equal(rec.pending_change, null, "a personal code never has a pending change");
    assert.match(rec.code, /^[0-9A-Za-z]{8}$/);
    assert.equal(rec.short_url, `${BASE_URL}/q/${rec.code}`);
    assert.equal(rec.status, "active");
    assert.equal(rec.team_id, null);
    assert.deepEqual(rec.style, {});
    assert.match(String(rec.created_at), /^\d{10}$/);
    assert.deepEqual((await http("GET", "/v1/dynqrcodes", { key })).body, { dynqrcodes: [rec], next_cursor: null });
  });

  it("batch: 1 to 50 items all or nothing, every invalid item by index", async () => {
    const { key } = await personalKey();
    const ok = await http("POST", "/v1/dynqrcodes/batch", { key, json: { dynqrcodes: [item(1), item(2)] } });
    assert.equal(ok.status, 201);
    const codes = (ok.body as { created: Dyn[] }).created.map((c) => c.code);
    assert.equal(new Set(codes).size, 2);
    const bad = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: { dynqrcodes: [{ destination_url: "javascript:alert(1)", name: "x" }, item(3), { name: "no url" }] },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, {
      errors: [
        { index: 0, error: "destination_url must be an absolute http or https URL" },
        { index: 2, error: "destination_url is required" },
      ],
    });
    const tooMany = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: { dynqrcodes: Array.from({ length: 51 }, (_, i) => item(i)) },
    });
    assert.deepEqual(tooMany.body, { error: "A batch holds at most 50 items" });
    assert.equal(((await http("GET", "/v1/dynqrcodes", { key })).body as { dynqrcodes: Dyn[] }).dynqrcodes.length, 2);
  });

  it("PATCH changes destination_url, name and status; bad input is 400 and changes nothing", async () => {
    const { key } = await personalKey();
    const rec = await createOne(key);
    const dest = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, {
      key,
      json: { destination_url: "https://example.org/new" },
    });
    assert.equal(dest.status, 200);
    assert.equal((dest.body as Dyn).destination_url, "https://example.org/new");
    const name = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key, json: { name: "  Renamed " } });
    assert.equal((name.body as Dyn).name, "Renamed");
    const paused = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key, json: { status: "paused" } });
    assert.equal((paused.body as Dyn).status, "paused");
    const active = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key, json: { status: "active", name: "Both" } });
    assert.deepEqual([(active.body as Dyn).status, (active.body as Dyn).name], ["active", "Both"]);

    const cases: [object, string][] = [
      [
        {},
        "Send at least one of type, destination_url, content, name, status, style, style_preset, expires_at, expired_url, targets, utm, password, metadata, external_id",
      ],
      [{ status: "archived" }, "status must be one of active, paused, draft"],
      [{ status: "draft" }, "status draft is only for team library items: use active or paused"],
      [{ destination_url: "ftp://x.example" }, "destination_url must be an absolute http or https URL"],
      [{ name: "" }, "name must be 1 to 200 characters (after trimming)"],
      [{ colour: "red" }, "Unknown field: colour"],
    ];
    for (const [json, error] of cases) {
      const r = await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key, json });
      assert.equal(r.status, 400, JSON.stringify(json));
      assert.deepEqual(r.body, { error });
    }
    const after = ((await http("GET", "/v1/dynqrcodes", { key })).body as { dynqrcodes: Dyn[] }).dynqrcodes[0];
    assert.deepEqual([after.destination_url, after.name, after.status], ["https://example.org/new", "Both", "active"]);
  });

  it("DELETE is soft: 200, then 404 on PATCH and DELETE, 410 on /q, gone from lists and exports", async () => {
    const { key } = await personalKey();
    const rec = await createOne(key);
    const del = await http("DELETE", `/v1/dynqrcodes/${rec.code}`, { key });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { code: rec.code, deleted: true });
    assert.deepEqual((await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key, json: { name: "x" } })).body, {
      error: "Dynamic QR code not found",
    });
    assert.equal((await http("DELETE", `/v1/dynqrcodes/${rec.code}`, { key })).status, 404);
    assert.equal((await http("GET", `/q/${rec.code}`)).status, 410);
    assert.deepEqual((await http("GET", "/v1/dynqrcodes", { key })).body, { dynqrcodes: [], next_cursor: null });
    assert.equal((await http("GET", "/v1/dynqrcodes/export", { key })).text.trim().split("\r\n").length, 1);
  });

  it("another library's code is 404 for every route", async () => {
    const alice = await personalKey();
    const bob = await personalKey();
    const rec = await createOne(alice.key);
    assert.equal(
      (await http("PATCH", `/v1/dynqrcodes/${rec.code}`, { key: bob.key, json: { name: "mine" } })).status,
      404,
    );
    assert.equal((await http("DELETE", `/v1/dynqrcodes/${rec.code}`, { key: bob.key })).status, 404);
    assert.deepEqual((await http("GET", "/v1/dynqrcodes", { key: bob.key })).body, {
      dynqrcodes: [],
      next_cursor: null,
    });
    assert.equal((await http("GET", `/q/${rec.code}`)).status, 302);
  });

  it("literal segments never match {code}", async () => {
    const { key } = await personalKey();
    assert.equal((await http("PATCH", "/v1/dynqrcodes/export", { key, json: { name: "x" } })).status, 405);
    assert.equal((await http("DELETE", "/v1/dynqrcodes/batch", { key })).headers.get("allow"), "POST, PATCH");
  });

  it("GET /v1/dynqrcodes/export → the contract's columns with total_scans", async () => {
    const { key } = await personalKey();
    const rec = await createOne(key, { destination_url: "https://example.com/x", name: "=cmd" });
    const r = await http("GET", "/v1/dynqrcodes/export", { key });
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-disposition") ?? "", /filename="dynqrcodes-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = parse(r.text, { columns: true }) as Record<string, string>[];
    assert.deepEqual(Object.keys(rows[0]), [
      "code",
      "name",
      "short_url",
      "destination_url",
      "status",
      "team_id",
      "created_at",
      "updated_at",
      "total_scans",
      "expires_at",
      "expired_url",
      "targets",
      "utm",
      "password_protected",
      "metadata",
      "external_id",
      "type",
      "content",
    ]);
    assert.deepEqual(rows[0], {
      code: rec.code,
      name: "'=cmd",
      short_url: rec.short_url,
      destination_url: "https://example.com/x",
      status: "active",
      team_id: "",
      created_at: new Date(rec.created_at * 1000).toISOString().replace(".000Z", "Z"),
      updated_at: new Date(rec.updated_at * 1000).toISOString().replace(".000Z", "Z"),
      total_scans: "0",
      expires_at: "",
      expired_url: "",
      targets: "",
      utm: "",
      password_protected: "false",
      metadata: "{}",
      external_id: "",
      type: "url",
      content: "",
    });
  });
});
