// The command line's finding and changing (issue 42): `list` with filters, `get` of one record,
// `update-many` from a CSV file, against the running server.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { http, personalKey } from "../helpers";
import { all, cli, client, dir } from "../cli-runner";

describe("qr-records list, get and update-many", () => {
  it("list finds codes by --search and --status, sorted, as columns or JSON lines", async () => {
    const { key } = await personalKey();
    const created = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: {
        dynqrcodes: [
          { name: "Café Nord", destination_url: "https://example.com/nord" },
          { name: "Bakery", destination_url: "https://example.com/CAFE-menu" },
          { name: "café sud", destination_url: "https://example.com/sud" },
        ],
      },
    });
    const [nord, bakery, sud] = (created.body as { created: { code: string }[] }).created;
    await http("PATCH", `/v1/dynqrcodes/${sud.code}`, { key, json: { status: "paused" } });
    const found = await cli(["list", "dynamic", "--search", "CAFÉ", "--sort", "name"], key);
    assert.equal(found.code, 0, found.stderr);
    assert.equal(
      found.stdout,
      `${nord.code}\tactive\tCafé Nord\thttps://example.com/nord\n${sud.code}\tpaused\tcafé sud\thttps://example.com/sud\n`,
    );
    const paused = await cli(["list", "dynamic", "--status", "paused", "--json"], key);
    assert.deepEqual(
      paused.stdout
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { code: string }).code),
      [sud.code],
    );
    const cafe = await cli(["list", "dynamic", "--search", "cafe", "--max", "1"], key);
    assert.equal(cafe.stdout, `${bakery.code}\tactive\tBakery\thttps://example.com/CAFE-menu\n`);
    const bad = await cli(["list", "dynamic", "--status", "gone"], key);
    assert.deepEqual([bad.code, /status must be one of active, paused, draft \(HTTP 400/.test(bad.stderr)], [1, true]);
    const usage = await cli(["list", "static", "--status", "paused"], key);
    assert.deepEqual([usage.code, /--status is for dynamic codes/.test(usage.stderr)], [1, true]);
  });

  it("get prints one record; update-many changes a file's codes in batches, refused rows by line, nothing twice", async () => {
    const { key } = await personalKey();
    const c = client(key);
    const [dyn] = (
      await c.unwrap(c.api.POST("/dynqrcodes", { body: { name: "Poster", destination_url: "https://example.com/p" } }))
    ).created;
    const got = await cli(["get", dyn.code], key);
    assert.equal(got.code, 0, got.stderr);
    assert.deepEqual(JSON.parse(got.stdout), dyn);
    const missing = await cli(["get", "qr_0000000000000000000000"], key);
    assert.deepEqual([missing.code, /QR code not found \(HTTP 404/.test(missing.stderr)], [1, true], missing.stderr);

    const createSome = async (from: number, count: number) =>
      (
        await c.unwrap(
          c.api.POST("/qrcodes/batch", {
            body: {
              qrcodes: Array.from({ length: count }, (_, i) => ({
                name: `S${from + i}`,
                url: `https://example.com/${from + i}`,
              })),
            },
          }),
        )
      ).created;
    const statics = [...(await createSome(0, 50)), ...(await createSome(50, 10))];
    const file = path.join(dir, "changes.csv");
    const rows = statics.map(
      (s, i) => `${s.qr_id},https://example.com/new/${i},"{""row"":""${i}""}",${i === 0 ? "first" : ""}`,
    );
    writeFileSync(file, ["code,url,metadata,external_id", ...rows].join("\n"));
    const run = await cli(["update-many", file], key);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /60 of 60 codes changed/);
    const after = await all(c.staticCodes());
    const byId = new Map(after.map((s) => [s.qr_id, s]));
    statics.forEach((s, i) => {
      assert.equal(byId.get(s.qr_id)!.url, `https://example.com/new/${i}`);
      assert.deepEqual(byId.get(s.qr_id)!.metadata, { row: String(i) });
    });
    assert.equal(byId.get(statics[0].qr_id)!.external_id, "first");
    const ids = new Set(statics.map((s) => s.qr_id));
    const eventsOfFile = async () =>
      (await db.webhookEvent.findMany({ where: { type: "qrcode.updated" } })).filter((e) =>
        ids.has(JSON.parse(e.payload).data.qr_id),
      ).length;
    const updatedEvents = await eventsOfFile();
    // The same file again: replayed (the same Idempotency-Keys), nothing changed twice.
    const again = await cli(["update-many", file], key);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(
      (await all(c.staticCodes())).find((s) => s.qr_id === statics[0].qr_id)!.updated_at,
      byId.get(statics[0].qr_id)!.updated_at,
    );
    assert.equal(await eventsOfFile(), updatedEvents);

    // A refused row: its batch changes nothing and is reported by line; the other batch applies.
    const bad = path.join(dir, "changes-bad.csv");
    const badRows = statics.map((s, i) => `${s.qr_id},${i === 55 ? "ftp://nope" : `https://example.com/third/${i}`}`);
    writeFileSync(bad, ["code,url", ...badRows].join("\n"));
    const partly = await cli(["update-many", bad], key);
    assert.equal(partly.code, 2, partly.stderr);
    assert.match(partly.stdout, /50 of 60 codes changed/);
    assert.match(partly.stdout, /line 57: url must be an absolute http or https URL/);
    const third = new Map((await all(c.staticCodes())).map((s) => [s.qr_id, s.url]));
    assert.equal(third.get(statics[0].qr_id), "https://example.com/third/0");
    assert.equal(third.get(statics[55].qr_id), "https://example.com/new/55");
    const mixed = path.join(dir, "changes-mixed.csv");
    writeFileSync(mixed, `code,name\n${statics[0].qr_id},a\n${dyn.code},b\n`);
    const refused = await cli(["update-many", mixed], key);
    assert.deepEqual([refused.code, /One kind of code per file/.test(refused.stderr)], [1, true], refused.stderr);
  });
});
