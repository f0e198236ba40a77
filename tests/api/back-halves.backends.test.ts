// Your own back-halves (contract Part 3): a dynamic create's optional `code`. Its uniqueness is
// the database's (the unique index on `code`), so this runs on both backends.
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { BASE_URL, http, logIn, personalKey, TEST_PASSWORD } from "../helpers";
import { scansOf } from "../scans";

const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1";
type Dyn = { code: string; short_url: string; name: string; destination_url: string };

/** A code no other test (or run) has taken. */
const fresh = (stem: string) => `${stem}-${randomBytes(5).toString("hex")}`;
const item = (code?: string, i = 1) => ({
  name: `Back-half ${i}`,
  destination_url: `https://example.com/b/${i}`,
  ...(code === undefined ? {} : { code }),
});

async function listed(key: string): Promise<Dyn[]> {
  return (
    (await http("GET", "/v1/dynqrcodes?limit=100", { key })).body as {
      dynqrcodes: Dyn[];
    }
  ).dynqrcodes;
}

describe("back-halves", () => {
  it("a create with a code answers 201 with it; /q/<code> redirects and records the scan", async () => {
    const { key } = await personalKey();
    const code = fresh("Summer_menu-2026");
    const r = await http("POST", "/v1/dynqrcodes", { key, json: item(code) });
    assert.equal(r.status, 201, r.text);
    const [rec] = (r.body as { created: Dyn[] }).created;
    assert.equal(rec.code, code);
    assert.equal(rec.short_url, `${BASE_URL}/q/${code}`);
    const scan = await http("GET", `/q/${code}`, { headers: { "user-agent": PHONE } });
    assert.equal(scan.status, 302);
    assert.equal(scan.headers.get("location"), "https://example.com/b/1");
    const row = await db.dynamicCode.findFirstOrThrow({ where: { code } });
    assert.equal((await scansOf(row.id, 1)).length, 1);
    // Without a code, a generated one, as before.
    const generated = await http("POST", "/v1/dynqrcodes", { key, json: item() });
    assert.match((generated.body as { created: Dyn[] }).created[0].code, /^[0-9A-Za-z]{8}$/);
  });

  it("the same code again is 409 `Code already in use: <code>`, from any library; case matters", async () => {
    const { key } = await personalKey();
    const other = await personalKey();
    const code = fresh("Menu");
    assert.equal((await http("POST", "/v1/dynqrcodes", { key, json: item(code) })).status, 201);
    for (const k of [key, other.key]) {
      const again = await http("POST", "/v1/dynqrcodes", { key: k, json: item(code, 2) });
      assert.equal(again.status, 409, again.text);
      assert.deepEqual(again.body, { error: `Code already in use: ${code}` });
    }
    const lower = code.toLowerCase();
    const r = await http("POST", "/v1/dynqrcodes", { key, json: item(lower, 3) });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual((await listed(key)).map((d) => d.code).sort(), [code, lower].sort());
    assert.equal((await listed(other.key)).length, 0, "the refused creates made nothing");
  });

  it("refuses codes of the wrong shape and the route table's words with 400, creating nothing", async () => {
    const { key } = await personalKey();
    const shape = "code must be 1 to 64 characters of 0-9, A-Z, a-z, _ and -";
    for (const code of ["a".repeat(65), "a/b", "ä", "", "with space", 42]) {
      const r = await http("POST", "/v1/dynqrcodes", { key, json: { ...item(), code } });
      assert.equal(r.status, 400, `${JSON.stringify(code)}: ${r.text}`);
      assert.deepEqual(r.body, { error: shape }, JSON.stringify(code));
    }
    assert.equal((await http("POST", "/v1/dynqrcodes", { key, json: item("a".repeat(64)) })).status, 201);
    for (const word of ["batch", "batch-delete", "export", "images.zip"]) {
      const r = await http("POST", "/v1/dynqrcodes", { key, json: item(word) });
      assert.equal(r.status, 400, `${word}: ${r.text}`);
      if (word !== "images.zip")
        assert.deepEqual(r.body, { error: `code ${word} is reserved: /v1/dynqrcodes/${word} is a route` });
    }
    // A word is reserved as the route spells it: another case is a code like any other.
    const batchLike = fresh("Batch");
    assert.equal((await http("POST", "/v1/dynqrcodes", { key, json: item(batchLike) })).status, 201);
    assert.deepEqual((await listed(key)).map((d) => d.code).sort(), ["a".repeat(64), batchLike].sort());
  });

  it("a batch with a code twice, or one taken, is 409 by index and creates nothing", async () => {
    const { key } = await personalKey();
    const taken = fresh("taken");
    assert.equal((await http("POST", "/v1/dynqrcodes", { key, json: item(taken) })).status, 201);
    const twice = fresh("twice");
    const r = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: { dynqrcodes: [item(twice, 1), item(undefined, 2), item(twice, 3), item(taken, 4), item(fresh("ok"), 5)] },
    });
    assert.equal(r.status, 409, r.text);
    assert.deepEqual(r.body, {
      errors: [
        { index: 2, error: `Code already in use: ${twice}` },
        { index: 3, error: `Code already in use: ${taken}` },
      ],
    });
    // A shape error in a batch is 400 by index.
    const bad = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: { dynqrcodes: [item(fresh("fine"), 1), item("a/b", 2)] },
    });
    assert.equal(bad.status, 400, bad.text);
    assert.deepEqual(bad.body, {
      errors: [{ index: 1, error: "code must be 1 to 64 characters of 0-9, A-Z, a-z, _ and -" }],
    });
    assert.deepEqual(
      (await listed(key)).map((d) => d.code),
      [taken],
      "nothing of either batch was created",
    );
    const ok = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: { dynqrcodes: [item(twice, 1), item(undefined, 2)] },
    });
    assert.equal(ok.status, 201, ok.text);
    assert.equal((ok.body as { created: Dyn[] }).created[0].code, twice);
  });

  it("the pages' CSV import refuses a row whose code is taken, by its line", async () => {
    const { user, key } = await personalKey();
    const taken = fresh("csv-taken");
    assert.equal((await http("POST", "/v1/dynqrcodes", { key, json: item(taken) })).status, 201);
    const page = await logIn(user.email, TEST_PASSWORD);
    const own = fresh("csv-own");
    const rows = [
      { line: 2, name: "A", url: "https://example.com/a", code: own },
      { line: 3, name: "B", url: "https://example.com/b", code: taken },
      { line: 4, name: "C", url: "https://example.com/c", code: own },
      { line: 5, name: "D", url: "https://example.com/d", code: "a/b" },
      { line: 6, name: "E", url: "https://example.com/e", code: "" },
    ];
    assert.deepEqual(await page("libraryImport.check", { scope: "personal", kind: "dynamic", rows }), {
      problems: [
        { line: 3, error: `Code already in use: ${taken}` },
        { line: 4, error: `Code already in use: ${own}` },
        { line: 5, error: "Back-half must be 1 to 64 characters of 0-9, A-Z, a-z, _ and -" },
      ],
    });
    const good = [rows[0], rows[4]];
    const file = createHash("sha256").update(JSON.stringify(good)).digest("hex");
    assert.deepEqual(
      await page("libraryImport.batch", { scope: "personal", kind: "dynamic", file, position: 0, rows: good }),
      { created: 2, replayed: false },
    );
    const codes = (await listed(key)).map((d) => d.code);
    assert.equal(codes.length, 3);
    assert.ok(codes.includes(own) && codes.includes(taken), codes.join(","));
  });

  it("PATCH, analytics and image of /v1/dynqrcodes/{code} take a code with _ and -", async () => {
    const { key } = await personalKey();
    const code = fresh("_spring-Menu_");
    assert.equal((await http("POST", "/v1/dynqrcodes", { key, json: item(code) })).status, 201);
    const got = await http("GET", `/v1/dynqrcodes/${code}/analytics`, { key });
    assert.equal(got.status, 200, got.text);
    assert.equal((got.body as { total_scans: number }).total_scans, 0);
    const patched = await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { name: "Spring" } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((patched.body as Dyn).name, "Spring");
    assert.equal((await http("GET", `/v1/dynqrcodes/${code}/image`, { key })).status, 200);
    const other = await http("PATCH", `/v1/dynqrcodes/${code.toUpperCase()}`, { key, json: { name: "Other" } });
    assert.equal(other.status, 404, "another case is another code");
    assert.equal((await http("GET", `/q/${code}`, { headers: { "user-agent": PHONE } })).status, 302);
  });
});
