// The static QR API: success paths, validation, paging, library isolation and the CSV export.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { BASE_URL, http, personalKey } from "../helpers";

type Record_ = { qr_id: string; url: string; name: string; style: object; created_at: number; updated_at: number };
const item = (i: number) => ({ url: `https://example.com/item/${i}`, name: `Item ${i}` });

describe("static QR codes", () => {
  it("POST /v1/qrcodes → 201 {created: [record]} with the spec's fields", async () => {
    const { key } = await personalKey();
    const r = await http("POST", "/v1/qrcodes", {
      key,
      json: { url: "https://example.com/menu", name: "  Lunch menu  ", style: { foreground: "#112233", margin: 2 } },
    });
    assert.equal(r.status, 201);
    const { created } = r.body as { created: Record_[] };
    assert.equal(created.length, 1);
    const rec = created[0];
    assert.deepEqual(Object.keys(rec).sort(), [
      "content",
      "created_at",
      "external_id",
      "metadata",
      "name",
      "qr_id",
      "style",
      "type",
      "updated_at",
      "url",
    ]);
    assert.equal(rec.url, "https://example.com/menu");
    assert.equal(rec.name, "Lunch menu");
    assert.deepEqual(rec.style, { foreground: "#112233", margin: 2 });
    assert.match(String(rec.created_at), /^\d{10}$/);
    assert.ok(Math.abs(rec.created_at - Date.now() / 1000) < 60);
    const list = await http("GET", "/v1/qrcodes", { key });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, { qrcodes: [rec], next_cursor: null });
  });

  it("POST /v1/qrcodes/batch → 201 with every record; style {} when not sent", async () => {
    const { key } = await personalKey();
    const r = await http("POST", "/v1/qrcodes/batch", { key, json: { qrcodes: [item(1), item(2), item(3)] } });
    assert.equal(r.status, 201);
    const { created } = r.body as { created: Record_[] };
    assert.deepEqual(
      created.map((c) => c.name),
      ["Item 1", "Item 2", "Item 3"],
    );
    assert.ok(created.every((c) => JSON.stringify(c.style) === "{}"));
    assert.equal(new Set(created.map((c) => c.qr_id)).size, 3);
  });

  it("a 51-item batch → 400 and nothing is created", async () => {
    const { key } = await personalKey();
    const r = await http("POST", "/v1/qrcodes/batch", {
      key,
      json: { qrcodes: Array.from({ length: 51 }, (_, i) => item(i)) },
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { error: "A batch holds at most 50 items" });
    assert.deepEqual((await http("GET", "/v1/qrcodes", { key })).body, { qrcodes: [], next_cursor: null });
  });

  it("a 50-item batch is accepted", async () => {
    const { key } = await personalKey();
    const r = await http("POST", "/v1/qrcodes/batch", {
      key,
      json: { qrcodes: Array.from({ length: 50 }, (_, i) => item(i)) },
    });
    assert.equal(r.status, 201);
    assert.equal((r.body as { created: unknown[] }).created.length, 50);
  });

  it("invalid items at indexes 0 and 7 → 400 listing both, and nothing is created", async () => {
    const { key } = await personalKey();
    const items: object[] = Array.from({ length: 10 }, (_, i) => item(i));
    items[0] = { url: "ftp://example.com/file", name: "ftp" };
    items[7] = { url: "https://example.com", name: "   " };
    const r = await http("POST", "/v1/qrcodes/batch", { key, json: { qrcodes: items } });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, {
      errors: [
        { index: 0, error: "url must be an absolute http or https URL" },
        { index: 7, error: "name must be 1 to 200 characters (after trimming)" },
      ],
    });
    assert.deepEqual((await http("GET", "/v1/qrcodes", { key })).body, { qrcodes: [], next_cursor: null });
  });

  it("empty or missing batch arrays → 400", async () => {
    const { key } = await personalKey();
    assert.deepEqual((await http("POST", "/v1/qrcodes/batch", { key, json: { qrcodes: [] } })).body, {
      error: "qrcodes must hold at least 1 item",
    });
    assert.deepEqual((await http("POST", "/v1/qrcodes/batch", { key, json: {} })).body, {
      error: "qrcodes is required",
    });
  });

  it("validation failures give one exact error and change nothing", async () => {
    const { key } = await personalKey();
    const cases: [object, string][] = [
      [{ url: "ftp://example.com", name: "a" }, "url must be an absolute http or https URL"],
      [{ url: "javascript:alert(1)", name: "a" }, "url must be an absolute http or https URL"],
      [{ url: "data:text/html,hi", name: "a" }, "url must be an absolute http or https URL"],
      [{ url: "/relative/path", name: "a" }, "url must be an absolute http or https URL"],
      [{ url: "https://user:pw@example.com", name: "a" }, "url must not contain credentials"],
      [{ url: `https://example.com/${"a".repeat(2048)}`, name: "a" }, "url must be at most 2048 characters"],
      [{ url: `${BASE_URL}/q/abcdefgh`, name: "loop" }, "url must not point to this service's own /q/ short links"],
      [{ name: "a" }, "url is required"],
      [{ url: 42, name: "a" }, "url must be a string"],
      [{ url: "https://example.com" }, "name is required"],
      [{ url: "https://example.com", name: "" }, "name must be 1 to 200 characters (after trimming)"],
      [{ url: "https://example.com", name: "x".repeat(201) }, "name must be 1 to 200 characters (after trimming)"],
      [{ url: "https://example.com", name: "a", colour: "red" }, "Unknown field: colour"],
      [
        { url: "https://example.com", name: "a", style: { foreground: "red" } },
        "style.foreground must be a colour like #1a2b3c",
      ],
      [
        { url: "https://example.com", name: "a", style: { margin: 17 } },
        "style.margin must be an integer from 0 to 16",
      ],
      [{ url: "https://example.com", name: "a", style: { shape: "round" } }, "style has an unknown field: shape"],
      [{ url: "https://example.com", name: "a", style: "blue" }, "style must be an object"],
    ];
    for (const [json, error] of cases) {
      const r = await http("POST", "/v1/qrcodes", { key, json });
      assert.equal(r.status, 400, JSON.stringify(json).slice(0, 80));
      assert.deepEqual(r.body, { error }, JSON.stringify(json).slice(0, 80));
    }
    assert.deepEqual((await http("GET", "/v1/qrcodes", { key })).body, { qrcodes: [], next_cursor: null });
  });

  it("lists are newest first and page with limit and next_cursor", async () => {
    const { key } = await personalKey();
    await http("POST", "/v1/qrcodes/batch", { key, json: { qrcodes: Array.from({ length: 5 }, (_, i) => item(i)) } });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await http("GET", `/v1/qrcodes?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { key });
      assert.equal(r.status, 200);
      const page = r.body as { qrcodes: Record_[]; next_cursor: string | null };
      assert.ok(page.qrcodes.length <= 2);
      seen.push(...page.qrcodes.map((q) => q.name));
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, ["Item 4", "Item 3", "Item 2", "Item 1", "Item 0"]);
    for (const bad of ["limit=0", "limit=101", "limit=abc", "limit=1.5", "cursor=nonsense"]) {
      const r = await http("GET", `/v1/qrcodes?${bad}`, { key });
      assert.equal(r.status, 400, bad);
      assert.deepEqual(Object.keys(r.body as object), ["error"]);
    }
  });

  it("DELETE /v1/qrcodes/{qr_id} → 200 {qr_id, deleted: true}, then 404", async () => {
    const { key } = await personalKey();
    const { created } = (await http("POST", "/v1/qrcodes", { key, json: item(1) })).body as { created: Record_[] };
    const id = created[0].qr_id;
    const r = await http("DELETE", `/v1/qrcodes/${id}`, { key });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { qr_id: id, deleted: true });
    const again = await http("DELETE", `/v1/qrcodes/${id}`, { key });
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, { error: "QR code not found" });
  });

  it("one personal library never sees or changes another's records (404, not 403)", async () => {
    const alice = await personalKey();
    const bob = await personalKey();
    const { created } = (await http("POST", "/v1/qrcodes", { key: alice.key, json: item(1) })).body as {
      created: Record_[];
    };
    assert.deepEqual((await http("GET", "/v1/qrcodes", { key: bob.key })).body, { qrcodes: [], next_cursor: null });
    const del = await http("DELETE", `/v1/qrcodes/${created[0].qr_id}`, { key: bob.key });
    assert.equal(del.status, 404);
    const csv = await http("GET", "/v1/qrcodes/export", { key: bob.key });
    assert.equal(csv.text.trim(), "qr_id,name,url,created_at,updated_at,metadata,external_id,type,content");
    assert.equal(
      ((await http("GET", "/v1/qrcodes", { key: alice.key })).body as { qrcodes: unknown[] }).qrcodes.length,
      1,
    );
  });

  it("GET /v1/qrcodes/export → CSV with header, quoting and the formula guard", async () => {
    const { key } = await personalKey();
    const names = ["Plain", 'Quote " and, comma', '=HYPERLINK("http://evil")', "+1 prefixed", "-minus", "@at"]; // (names refuse line breaks and other control characters: tests/api/paper-cuts.integration.test.ts)
    await http("POST", "/v1/qrcodes/batch", {
      key,
      json: { qrcodes: names.map((name, i) => ({ name, url: `https://example.com/${i}` })) },
    });
    const r = await http("GET", "/v1/qrcodes/export", { key });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "text/csv; charset=utf-8");
    assert.match(r.headers.get("content-disposition") ?? "", /^attachment; filename="qrcodes-\d{4}-\d{2}-\d{2}\.csv"$/);
    assert.ok(r.text.startsWith("qr_id,name,url,created_at,updated_at,metadata,external_id,type,content\r\n"));
    const rows = parse(r.text, { columns: true }) as Record<string, string>[];
    assert.equal(rows.length, names.length);
    assert.deepEqual(
      rows.map((row) => row.name),
      ["Plain", 'Quote " and, comma', '\'=HYPERLINK("http://evil")', "'+1 prefixed", "'-minus", "'@at"],
    );
    assert.ok(rows.every((row) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(row.created_at)));
    assert.ok(r.text.includes('"Quote "" and, comma"'));
  });
});
