// The bundle on the run's server (docs/BUNDLE.md): what an export holds and in which order, who
// may export and import, all or nothing (409 conflicts and 400 lines, by line number, nothing
// written), idempotency, and a bundle made by hand with only some fields. The 100,000-scan round
// trip between backends is tests/instances/bundle.postgres.test.ts.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { before, describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { createDynamicCodes } from "../../server/library/dynamicCodes";
import { createStaticCodes } from "../../server/library/staticCodes";
import { newScan } from "../../server/scan/rows";
import { writeScans } from "../../server/scan/write";
import { http, makeTeam, personalKey } from "../helpers";

const NDJSON = { "content-type": "application/x-ndjson" };
const post = (key: string, body: string, headers: Record<string, string> = NDJSON) =>
  http("POST", "/v1/bundle", { key, body, headers });
const HEAD = '{"type": "bundle", "version": 1}';
const bundleOf = (...lines: object[]) => [HEAD, ...lines.map((l) => JSON.stringify(l))].join("\n") + "\n";

/** What a personal library holds: its codes and their scans. */
async function contents(userId: string) {
  const dynamic = await db.dynamicCode.findMany({ where: { userId, teamId: null }, select: { id: true } });
  return {
    static: await db.staticCode.count({ where: { userId, teamId: null } }),
    dynamic: dynamic.length,
    scans: await db.scanEvent.count({ where: { dynamicCodeId: { in: dynamic.map((d) => d.id) } } }),
  };
}

describe("the bundle", () => {
  let source: Awaited<ReturnType<typeof personalKey>>;
  let code: string;
  let exported: string;

  before(async () => {
    source = await personalKey();
    const actor = { userId: source.user.id, library: { kind: "personal" as const, userId: source.user.id } };
    await createStaticCodes(actor, [
      { url: "https://example.com/s", name: "Static", external_id: `ext-${randomUUID()}` },
    ]);
    const [dyn] = await createDynamicCodes(actor, [{ destination_url: "https://example.com/d", name: "Dynamic" }]);
    code = dyn.code;
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code } });
    await writeScans(
      Array.from({ length: 30 }, (_, n) =>
        newScan({
          dynamicCodeId: id,
          scannedAt: Date.now() - n * 3_600_000,
          destinationUrl: "https://example.com/d",
          userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Mobile/15E148 Safari/604.1",
          address: `10.1.0.${n % 4}`,
          countryHeader: "DE",
        }),
      ),
    );
    const r = await http("GET", "/v1/bundle", { key: source.key });
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type") ?? "", /^application\/x-ndjson/);
    assert.match(
      r.headers.get("content-disposition") ?? "",
      /^attachment; filename="bundle-\d{4}-\d{2}-\d{2}\.ndjson"$/,
    );
    exported = r.text;
  });

  it("exports the bundle line first, then every code, each dynamic code's scans after it", () => {
    const lines = exported
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(Object.keys(lines[0]), ["type", "version", "exported_at"]);
    assert.deepEqual(
      lines.map((l) => l.type),
      ["bundle", "static", "dynamic", ...Array(30).fill("scan")],
    );
    const scan = lines[3];
    assert.deepEqual(Object.keys(scan).sort(), [
      "browser",
      "code",
      "country",
      "destination",
      "device",
      "domain",
      "os",
      "scanned_at",
      "type",
      "unique",
    ]);
    assert.equal(scan.code, code);
    assert.equal(scan.country, "DE");
    assert.equal(lines.filter((l) => l.unique === true).length > 0, true);
  });

  it("posted again into its own library, creates nothing: every code is already imported, with its scans", async () => {
    const before = await contents(source.user.id);
    const r = await post(source.key, exported);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      created: { static: 0, dynamic: 0, scans: 0 },
      skipped: { static: 1, dynamic: 1, scans: 30 },
    });
    assert.deepEqual(await contents(source.user.id), before);
  });

  it("answers 409 with the line of each code taken on the instance, and writes nothing", async () => {
    const other = await personalKey();
    const r = await post(other.key, exported);
    assert.equal(r.status, 409, r.text);
    assert.deepEqual(r.body, { errors: [{ line: 3, error: `code ${code} is already taken` }] });
    assert.deepEqual(await contents(other.user.id), { static: 0, dynamic: 0, scans: 0 });
    // An external_id the library already uses is a conflict too.
    await post(other.key, bundleOf({ type: "static", url: "https://example.com/x", name: "X", external_id: "mine" }));
    const again = await post(
      other.key,
      bundleOf(
        { type: "static", url: "https://example.com/y", name: "Y" },
        { type: "static", url: "https://example.com/z", name: "Z", external_id: "mine" },
      ),
    );
    assert.deepEqual(
      [again.status, again.body],
      [409, { errors: [{ line: 3, error: "external_id already used: mine" }] }],
    );
    assert.deepEqual(await contents(other.user.id), { static: 1, dynamic: 0, scans: 0 });
  });

  it("answers 400 with the line numbers of bad lines, and writes nothing", async () => {
    const other = await personalKey();
    const huge = JSON.stringify({ type: "static", url: "https://example.com/h", name: "x".repeat(1024 * 1024) });
    const bad = [
      HEAD,
      "not json",
      '{"type": "coupon"}',
      '{"type": "static", "url": "https://example.com/a", "name": "A"}',
      "",
      '{"type": "scan", "code": "nowhere", "scanned_at": 1790000000}',
      '{"type": "dynamic", "code": "ok-code", "destination_url": "ftp://x", "name": "D"}',
      "[1, 2]",
    ].join("\n");
    const r = await post(other.key, bad);
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(r.body, {
      errors: [
        { line: 2, error: "not valid JSON" },
        { line: 3, error: "type must be one of bundle, domain, static, dynamic, scan" },
        { line: 6, error: "scan of code nowhere before (or without) its dynamic line" },
        { line: 7, error: (r.body as { errors: { error: string }[] }).errors[3].error },
        { line: 8, error: "a line must be a JSON object" },
      ],
    });
    assert.match((r.body as { errors: { error: string }[] }).errors[3].error, /^destination_url /);
    const long = await post(other.key, `${HEAD}\n${huge}\n{"type": "static"}\n`);
    assert.deepEqual(
      [long.status, long.body],
      [400, { errors: [{ line: 2, error: "line is longer than 1048576 bytes" }] }],
    );
    const headless = await post(other.key, '{"type": "static", "url": "https://example.com/a", "name": "A"}\n');
    assert.deepEqual(headless.body, {
      errors: [{ line: 1, error: 'the first line must be {"type": "bundle", "version": 1}' }],
    });
    const version = await post(other.key, '{"type": "bundle", "version": 2}\n');
    assert.deepEqual(version.body, { errors: [{ line: 1, error: "unsupported bundle version: 2" }] });
    const json = await post(other.key, bundleOf(), { "content-type": "application/json" });
    assert.deepEqual([json.status, json.body], [415, { error: "Content-Type must be application/x-ndjson" }]);
    assert.deepEqual(await contents(other.user.id), { static: 0, dynamic: 0, scans: 0 });
  });

  it("takes a bundle made by hand with only some fields, with the stated defaults, once", async () => {
    const target = await personalKey();
    const back = `hand-${randomUUID().slice(0, 8)}`;
    const hand = bundleOf(
      {
        type: "dynamic",
        code: back,
        destination_url: "https://example.com/hand",
        name: " Hand ",
        created_at: 1790000000,
      },
      { type: "scan", code: back, scanned_at: 1790000100 },
      { type: "scan", code: back, scanned_at: 1790000200, unique: false, country: "IN", device: "mobile", os: "iOS" },
      { type: "static", url: "https://example.com/s", name: "S", created_at: 1790000000 },
    );
    const first = await post(target.key, hand);
    assert.deepEqual(first.body, {
      created: { static: 1, dynamic: 1, scans: 2 },
      skipped: { static: 0, dynamic: 0, scans: 0 },
    });
    const again = await post(target.key, hand);
    assert.deepEqual(again.body, {
      created: { static: 0, dynamic: 0, scans: 0 },
      skipped: { static: 1, dynamic: 1, scans: 2 },
    });
    const record = (await http("GET", `/v1/dynqrcodes/${back}`, { key: target.key })).body as Record<string, unknown>;
    assert.deepEqual(
      [
        record.name,
        record.status,
        record.style,
        record.created_at,
        record.updated_at,
        record.expires_at,
        record.password_protected,
        record.metadata,
      ],
      ["Hand", "active", {}, 1790000000, 1790000000, null, false, {}],
    );
    const analytics = (
      await http("GET", `/v1/dynqrcodes/${back}/analytics?from=2026-09-21&to=2026-09-21`, { key: target.key })
    ).body as { total_scans: number; unique_scans: number };
    assert.equal(analytics.total_scans, 2);
    assert.equal(analytics.unique_scans, 1);
    const scans = await db.scanEvent.findMany({
      where: { dynamicCodeId: (await db.dynamicCode.findFirstOrThrow({ where: { code: back } })).id },
      orderBy: { id: "asc" },
    });
    assert.deepEqual(
      scans.map((s) => [s.country, s.device, s.os, s.browser, s.unique, s.destinationUrl]),
      [
        ["ZZ", "other", "Unknown", "Unknown", true, "https://example.com/hand"],
        ["IN", "mobile", "iOS", "Unknown", false, "https://example.com/hand"],
      ],
    );
  });

  it("lets any team key export, and only the team's admin import, active codes published", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const back = `team-${randomUUID().slice(0, 8)}`;
    const bundle = bundleOf({
      type: "dynamic",
      code: back,
      destination_url: "https://example.com/t",
      name: "T",
      created_at: 1790000000,
    });
    const refused = await post(writer.key, bundle);
    assert.deepEqual(
      [refused.status, refused.body],
      [403, { error: "Only a team admin can import a bundle into the team library" }],
    );
    assert.equal(await db.dynamicCode.count({ where: { code: back } }), 0);
    const r = await post(team.adminKey, bundle);
    assert.equal(r.status, 200, r.text);
    const row = await db.dynamicCode.findFirstOrThrow({ where: { code: back } });
    assert.deepEqual([row.teamId, row.status, row.publishedAt?.getTime()], [team.id, "active", 1790000000_000]);
    const out = await http("GET", "/v1/bundle", { key: writer.key });
    assert.equal(out.status, 200);
    assert.ok(out.text.includes(`"code":"${back}"`));
    const entries = await db.activityEntry.findMany({ where: { teamId: team.id, action: { startsWith: "bundle." } } });
    assert.deepEqual(entries.map((e) => e.action).sort(), ["bundle.exported", "bundle.imported"]);
  });

  it("moves static codes of every type with their code_type and content, and checks them as a create does", async () => {
    const target = await personalKey();
    const wifi = { ssid: "Café; Gäste", password: "p:a,s\\s;word", encryption: "WPA", hidden: false };
    const bad = await post(
      target.key,
      bundleOf({ type: "static", code_type: "wifi", url: "https://example.com/w", name: "W" }),
    );
    assert.equal(bad.status, 400, bad.text);
    assert.match(JSON.stringify(bad.body), /"line":2,"error":"url must be null for type wifi/);
    const typed = bundleOf(
      { type: "static", code_type: "wifi", content: wifi, name: "Wi-Fi", created_at: 1790000000 },
      {
        type: "static",
        code_type: "geo",
        content: { latitude: 48.8584, longitude: 2.2945 },
        name: "Tower",
        created_at: 1790000001,
      },
    );
    const first = await post(target.key, typed);
    assert.deepEqual(first.body, {
      created: { static: 2, dynamic: 0, scans: 0 },
      skipped: { static: 0, dynamic: 0, scans: 0 },
    });
    const again = await post(target.key, typed);
    assert.deepEqual(again.body, {
      created: { static: 0, dynamic: 0, scans: 0 },
      skipped: { static: 2, dynamic: 0, scans: 0 },
    });
    const list = (await http("GET", "/v1/qrcodes", { key: target.key })).body as { qrcodes: Record<string, unknown>[] };
    const byName = new Map(list.qrcodes.map((r) => [r.name, r]));
    assert.deepEqual(
      [byName.get("Wi-Fi")?.type, byName.get("Wi-Fi")?.url, byName.get("Wi-Fi")?.content],
      ["wifi", null, wifi],
    );
    assert.equal(byName.get("Tower")?.type, "geo");
    const out = (await http("GET", "/v1/bundle", { key: target.key })).text
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l));
    const line = out.find((l) => l.name === "Wi-Fi");
    assert.deepEqual([line.code_type, line.url, line.content], ["wifi", null, wifi]);
    assert.equal(out.find((l) => l.name === "Tower").code_type, "geo");
  });

  it("moves custom domains as names, added unverified, with their codes; another library's domain is a conflict", async () => {
    const target = await personalKey();
    const domain = `b${randomUUID().slice(0, 8)}.example.com`;
    const back = `dom-${randomUUID().slice(0, 8)}`;
    const onDomain = { type: "dynamic", code: back, domain, destination_url: "https://example.com/dom", name: "On it" };
    const bundle = bundleOf(
      { type: "domain", domain, verified: true },
      { ...onDomain, created_at: 1790000000 },
      { type: "scan", code: back, domain, scanned_at: 1790000100 },
    );
    const first = await post(target.key, bundle);
    assert.deepEqual(first.body, {
      created: { static: 0, dynamic: 1, scans: 1 },
      skipped: { static: 0, dynamic: 0, scans: 0 },
    });
    const again = await post(target.key, bundle);
    assert.deepEqual(again.body, {
      created: { static: 0, dynamic: 0, scans: 0 },
      skipped: { static: 0, dynamic: 1, scans: 1 },
    });
    const domains = (await http("GET", "/v1/domains", { key: target.key })).body as { domains: object[] };
    assert.deepEqual(
      domains.domains.map((d) => [(d as { domain: string }).domain, (d as { verified: boolean }).verified]),
      [[domain, false]],
    );
    const record = (await http("GET", `/v1/dynqrcodes/${back}`, { key: target.key })).body as Record<string, unknown>;
    assert.deepEqual([record.domain, record.short_url], [domain, `https://${domain}/${back}`]);
    const out = (await http("GET", "/v1/bundle", { key: target.key })).text.trimEnd().split("\n").slice(1);
    assert.deepEqual(JSON.parse(out[0]), { type: "domain", domain, verified: false });
    assert.equal(JSON.parse(out[1]).domain, domain);
    assert.equal(JSON.parse(out[2]).domain, domain);

    const other = await personalKey();
    const taken = await post(other.key, bundle);
    assert.deepEqual(
      [taken.status, taken.body],
      [
        409,
        {
          errors: [
            { line: 2, error: `domain ${domain} belongs to another library` },
            { line: 3, error: `code ${back} is already taken` },
          ],
        },
      ],
    );
    const lineless = await post(other.key, bundleOf({ ...onDomain, domain: `x${domain}` }));
    assert.equal(lineless.status, 400);
    assert.deepEqual((lineless.body as { errors: object[] }).errors, [
      { line: 2, error: `domain x${domain} has no domain line before it` },
    ]);
    assert.deepEqual(await contents(other.user.id), { static: 0, dynamic: 0, scans: 0 });
  });
});
