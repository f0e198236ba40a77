// The short address /q/<code> and scan recording.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { countryOfAddress } from "../../server/scan/country";
import { newScan } from "../../server/scan/rows";
import { writeScans } from "../../server/scan/write";
import { BOTS, UA } from "../agents";
import { http, personalKey } from "../helpers";
import { scansOf } from "../scans";

async function dynamicCode(destination = "https://example.com/landing") {
  const { key } = await personalKey();
  const r = await http("POST", "/v1/dynqrcodes", { key, json: { destination_url: destination, name: "Scan me" } });
  const code = (r.body as { created: { code: string }[] }).created[0].code;
  const row = await db.dynamicCode.findFirstOrThrow({ where: { code } });
  return { key, code, id: row.id };
}

describe("the short address", () => {
  it("302 to the destination with Cache-Control private, max-age=0, for GET and HEAD", async () => {
    const { code } = await dynamicCode();
    for (const method of ["GET", "HEAD"]) {
      const r = await http(method, `/q/${code}`, { headers: { "user-agent": UA.iphone } });
      assert.equal(r.status, 302, method);
      assert.equal(r.headers.get("location"), "https://example.com/landing");
      assert.equal(r.headers.get("cache-control"), "private, max-age=0");
    }
  });

  it("unknown and paused codes are 404 pages; deleted 410; a change is seen by the very next scan", async () => {
    assert.equal((await http("GET", "/q/zzzzzzzz")).status, 404);
    const unknown = await http("GET", "/q/NoSuch01");
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get("content-type") ?? "", /text\/html/);
    assert.match(unknown.text, /not known/);
    const { key, code } = await dynamicCode();
    assert.equal((await http("GET", `/q/${code}`)).status, 302);
    await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { destination_url: "https://example.org/second" } });
    assert.equal((await http("GET", `/q/${code}`)).headers.get("location"), "https://example.org/second");
    await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { status: "paused" } });
    const paused = await http("GET", `/q/${code}`);
    assert.equal(paused.status, 404);
    assert.match(paused.text, /paused/);
    await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { status: "active" } });
    assert.equal((await http("GET", `/q/${code}`)).status, 302);
    await http("DELETE", `/v1/dynqrcodes/${code}`, { key });
    const gone = await http("GET", `/q/${code}`);
    assert.equal(gone.status, 410);
    assert.match(gone.text, /removed/);
  });
});

describe("scan recording", () => {
  it("device, OS and browser from real user agents; bots and HEAD not counted", async () => {
    const { code, id } = await dynamicCode();
    for (const ua of Object.values(UA))
      assert.equal((await http("GET", `/q/${code}`, { headers: { "user-agent": ua } })).status, 302);
    for (const ua of BOTS)
      assert.equal((await http("GET", `/q/${code}`, { headers: { "user-agent": ua } })).status, 302, ua);
    await http("HEAD", `/q/${code}`, { headers: { "user-agent": UA.iphone } });
    const rows = await scansOf(id, 5);
    await new Promise((r) => setTimeout(r, 500)); // anything miscounted would have arrived by now
    const all = await db.scanEvent.findMany({ where: { dynamicCodeId: id }, orderBy: { id: "asc" } });
    assert.equal(all.length, 5);
    assert.deepEqual(
      rows.map((r) => [r.device, r.os, r.browser]),
      [
        ["mobile", "iOS", "Mobile Safari"],
        ["mobile", "Android", "Chrome"],
        ["tablet", "iOS", "Mobile Safari"],
        ["desktop", "Windows", "Edge"],
        ["desktop", "Mac OS", "Firefox"],
      ],
    );
    assert.ok(rows.every((r) => r.destinationUrl === "https://example.com/landing"));
  });

  it("country from the trusted header, ZZ without it; no raw address stored", async () => {
    const { code, id } = await dynamicCode();
    await http("GET", `/q/${code}`, { headers: { "user-agent": UA.android, "cf-ipcountry": "de" } });
    await http("GET", `/q/${code}`, { headers: { "user-agent": UA.edge, "x-vercel-ip-country": "FR" } });
    const rows = await scansOf(id, 2);
    assert.deepEqual(
      rows.map((r) => r.country),
      ["DE", "ZZ"],
    );
    const dump = JSON.stringify(await db.scanEvent.findMany({ where: { dynamicCodeId: id } }));
    assert.ok(!dump.includes("127.0.0.1") && !dump.includes("::1"), "no raw address");
    assert.ok(rows.every((r) => /^[0-9a-f]{32}$/.test(r.visitorHash)));
  });

  it("the same visitor twice in a day is one unique scan; another visitor is unique too", async () => {
    const { code, id } = await dynamicCode();
    await http("GET", `/q/${code}`, { headers: { "user-agent": UA.iphone } });
    await http("GET", `/q/${code}`, { headers: { "user-agent": UA.iphone } });
    await http("GET", `/q/${code}`, { headers: { "user-agent": UA.firefox } });
    const rows = await scansOf(id, 3);
    assert.deepEqual(
      rows.map((r) => r.unique),
      [true, false, true],
    );
    assert.equal(rows[0].visitorHash, rows[1].visitorHash);
    assert.notEqual(rows[0].visitorHash, rows[2].visitorHash);
  });

  it("the same visitor the next UTC day is unique again", async () => {
    const { id } = await dynamicCode();
    const visit = (at: string) =>
      newScan({
        dynamicCodeId: id,
        scannedAt: Date.parse(at),
        destinationUrl: "https://example.com/landing",
        userAgent: UA.iphone,
        address: "203.0.113.7",
        countryHeader: null,
      });
    await writeScans([visit("2026-03-01T09:00:00Z"), visit("2026-03-01T23:59:59Z")]);
    await writeScans([visit("2026-03-02T00:00:01Z"), visit("2026-03-02T12:00:00Z")]);
    const rows = await db.scanEvent.findMany({ where: { dynamicCodeId: id }, orderBy: { scannedAt: "asc" } });
    assert.deepEqual(
      rows.map((r) => [r.day, r.unique]),
      [
        ["2026-03-01", true],
        ["2026-03-01", false],
        ["2026-03-02", true],
        ["2026-03-02", false],
      ],
    );
  });

  it("an X-Forwarded-For sent by the client is not believed (TRUST_PROXY unset)", async () => {
    const { code, id } = await dynamicCode();
    await http("GET", `/q/${code}`, { headers: { "user-agent": UA.edge, "x-forwarded-for": "8.8.8.8" } });
    await http("GET", `/q/${code}`, { headers: { "user-agent": UA.edge, "x-forwarded-for": "81.2.69.142" } });
    const rows = await scansOf(id, 2);
    assert.deepEqual(
      rows.map((r) => [r.country, r.unique]),
      [
        ["ZZ", true],
        ["ZZ", false],
      ],
    );
    assert.equal(rows[0].visitorHash, rows[1].visitorHash);
  });

  it("the bundled country database: public addresses, IPv6, mapped IPv4; none for private ones", () => {
    assert.equal(countryOfAddress("8.8.8.8"), "US");
    assert.equal(countryOfAddress("81.2.69.142"), "GB");
    assert.equal(countryOfAddress("::ffff:81.2.69.142"), "GB");
    assert.equal(countryOfAddress("2a00:1450:4001:80b::200e"), "DE");
    assert.equal(countryOfAddress("127.0.0.1"), null);
    assert.equal(countryOfAddress("10.1.2.3"), null);
    assert.equal(countryOfAddress("not an address"), null);
  });

  it("the same visitor scanning 50 times at once → 1 unique", async () => {
    const { code, id } = await dynamicCode();
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => http("GET", `/q/${code}`, { headers: { "user-agent": UA.android } })),
    );
    assert.ok(replies.every((r) => r.status === 302));
    const rows = await scansOf(id, 50);
    assert.equal(rows.length, 50);
    assert.equal(rows.filter((r) => r.unique).length, 1);
  });

  it("the export counts the scans", async () => {
    const { key, code } = await dynamicCode();
    for (let i = 0; i < 3; i++) await http("GET", `/q/${code}`, { headers: { "user-agent": UA.ipad } });
    const deadline = Date.now() + 10_000;
    let total = "";
    while (Date.now() < deadline) {
      const [header, row] = (await http("GET", "/v1/dynqrcodes/export", { key })).text
        .trim()
        .split("\r\n")
        .map((line) => line.split(","));
      total = row[header.indexOf("total_scans")];
      if (total === "3") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(total, "3");
  });
});
