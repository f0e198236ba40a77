// Analytics over a generated data set with known answers: scans on several past days (through
// the real batch writer), and today's through /q itself (a bot, a paused period), a deleted
// code, a code without scans. Expected numbers are computed here from the data set alone.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { newScan } from "../../server/scan/rows";
import { writeScans } from "../../server/scan/write";
import { db } from "../../server/platform/db";
import { http, personalKey } from "../helpers";
import { scansOf } from "../scans";

const AGENTS = {
  iphone: {
    ua: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    device: "mobile",
    os: "iOS",
    browser: "Mobile Safari",
  },
  android: {
    ua: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
    device: "mobile",
    os: "Android",
    browser: "Chrome",
  },
  edge: {
    ua: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
    device: "desktop",
    os: "Windows",
    browser: "Edge",
  },
  ipad: {
    ua: "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    device: "tablet",
    os: "iOS",
    browser: "Mobile Safari",
  },
};
type Agent = keyof typeof AGENTS;
type Visit = { at: string; agent: Agent; address: string; country: string | null };

// Past days: 2026-02-27 (outside the range asked below), 2026-03-01 to 2026-03-03.
const PAST: Visit[] = [
  { at: "2026-02-27T10:00:00Z", agent: "edge", address: "198.51.100.1", country: "FR" },
  { at: "2026-03-01T08:00:00Z", agent: "iphone", address: "198.51.100.2", country: "DE" },
  { at: "2026-03-01T09:00:00Z", agent: "iphone", address: "198.51.100.2", country: "DE" }, // same visitor, same day
  { at: "2026-03-01T10:00:00Z", agent: "android", address: "198.51.100.3", country: "US" },
  { at: "2026-03-01T23:59:59Z", agent: "edge", address: "198.51.100.4", country: null }, // no header, no database hit: ZZ
  { at: "2026-03-02T00:00:00Z", agent: "iphone", address: "198.51.100.2", country: "DE" }, // same visitor, next day: unique
  { at: "2026-03-02T12:00:00Z", agent: "ipad", address: "198.51.100.5", country: "US" },
  { at: "2026-03-02T12:30:00Z", agent: "ipad", address: "198.51.100.5", country: "US" },
  { at: "2026-03-02T13:00:00Z", agent: "android", address: "198.51.100.6", country: "GB" },
];

const visitorOf = (v: Visit) => `${v.address}|${v.agent}`;

/** The expected report, from the visits alone. */
function expected(visits: Visit[], from: string, to: string) {
  const inRange = visits.filter((v) => v.at.slice(0, 10) >= from && v.at.slice(0, 10) <= to);
  const seen = new Set<string>();
  const unique = visits.map((v) => {
    const key = `${v.at.slice(0, 10)}|${visitorOf(v)}`;
    const first = !seen.has(key);
    seen.add(key);
    return first;
  });
  const uniqueInRange = visits.filter((v, i) => unique[i] && inRange.includes(v));
  const tally = (pick: (v: Visit) => string) => {
    const counts = new Map<string, number>();
    for (const v of inRange) counts.set(pick(v), (counts.get(pick(v)) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  };
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return {
    total_scans: inRange.length,
    unique_scans: uniqueInRange.length,
    daily: days.map((date) => ({
      date,
      scans: inRange.filter((v) => v.at.startsWith(date)).length,
      unique_scans: uniqueInRange.filter((v) => v.at.startsWith(date)).length,
    })),
    countries: tally((v) => v.country ?? "ZZ").map(([country, scans]) => ({ country, scans })),
    devices: tally((v) => AGENTS[v.agent].device).map(([device, scans]) => ({ device, scans })),
    operating_systems: tally((v) => AGENTS[v.agent].os).map(([os, scans]) => ({ os, scans })),
    browsers: tally((v) => AGENTS[v.agent].browser).map(([browser, scans]) => ({ browser, scans })),
    unique,
  };
}

describe("analytics", () => {
  let key: string;
  let code: string;
  let deleted: string;
  let quiet: string;
  const today = new Date().toISOString().slice(0, 10);
  const todays: Visit[] = [];

  const create = async (name: string) => {
    const r = await http("POST", "/v1/dynqrcodes", { key, json: { destination_url: "https://example.com/a", name } });
    return (r.body as { created: { code: string }[] }).created[0].code;
  };
  const record = async (codeName: string, visits: Visit[]) => {
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code: codeName } });
    const scans = visits.map((v) =>
      newScan({
        dynamicCodeId: id,
        scannedAt: Date.parse(v.at),
        destinationUrl: "https://example.com/a",
        userAgent: AGENTS[v.agent].ua,
        address: v.address,
        countryHeader: v.country,
      }),
    );
    // Through the real batch writer, in two batches (the rollups add up across batches).
    await writeScans(scans.slice(0, 4));
    await writeScans(scans.slice(4));
  };

  before(async () => {
    ({ key } = await personalKey());
    code = await create("Poster");
    deleted = await create("Old flyer");
    quiet = await create("Nobody scans this");
    await record(code, PAST);
    await record(deleted, PAST.slice(1, 3));

    // Today, through /q: two scans by one visitor, a bot, a scan while paused, a second agent.
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code } });
    const scan = (agent: string, country = "de") =>
      http("GET", `/q/${code}`, { headers: { "user-agent": agent, "cf-ipcountry": country } });
    assert.equal((await scan(AGENTS.iphone.ua)).status, 302);
    assert.equal((await scan(AGENTS.iphone.ua)).status, 302);
    assert.equal((await scan("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).status, 302);
    await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { status: "paused" } });
    assert.equal((await scan(AGENTS.android.ua)).status, 404);
    await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { status: "active" } });
    assert.equal((await scan(AGENTS.ipad.ua, "fr")).status, 302);
    await scansOf(id, PAST.length + 3);
    const now = `${today}T12:00:00Z`;
    todays.push(
      { at: now, agent: "iphone", address: "127.0.0.1", country: "DE" },
      { at: now, agent: "iphone", address: "127.0.0.1", country: "DE" },
      { at: now, agent: "ipad", address: "127.0.0.1", country: "FR" },
    );
    await http("DELETE", `/v1/dynqrcodes/${deleted}`, { key });
  });

  it("per code, over a range: every number equals the data set's, every day listed", async () => {
    const r = await http("GET", `/v1/dynqrcodes/${code}/analytics?from=2026-02-28&to=2026-03-04`, { key });
    assert.equal(r.status, 200);
    const want: Partial<ReturnType<typeof expected>> = expected(PAST, "2026-02-28", "2026-03-04");
    delete want.unique; // per scan, for the export
    assert.deepEqual(r.body, { code, from: "2026-02-28", to: "2026-03-04", tz: "UTC", ...want });
    const body = r.body as { daily: unknown[]; total_scans: number; unique_scans: number };
    assert.equal(body.daily.length, 5);
    assert.deepEqual([body.total_scans, body.unique_scans], [8, 6]);
  });

  it("from and to include exactly their days", async () => {
    const oneDay = (await http("GET", `/v1/dynqrcodes/${code}/analytics?from=2026-03-02&to=2026-03-02`, { key }))
      .body as { total_scans: number; daily: unknown[] };
    assert.deepEqual([oneDay.total_scans, oneDay.daily.length], [4, 1]);
    const edge = (await http("GET", `/v1/dynqrcodes/${code}/analytics?from=2026-02-27&to=2026-02-27`, { key }))
      .body as { total_scans: number };
    assert.equal(edge.total_scans, 1);
  });

  it("the default range is the last 30 days up to today: today's scans through /q, without the bot or the paused one", async () => {
    const r = (await http("GET", `/v1/dynqrcodes/${code}/analytics`, { key })).body as {
      from: string;
      to: string;
      daily: { date: string; scans: number; unique_scans: number }[];
      total_scans: number;
      unique_scans: number;
      countries: unknown;
    };
    assert.equal(r.to, today);
    assert.equal(r.daily.length, 30);
    assert.equal(r.daily[0].date, r.from);
    assert.deepEqual(r.daily.at(-1), { date: today, scans: 3, unique_scans: 2 });
    assert.deepEqual([r.total_scans, r.unique_scans], [3, 2]);
    assert.deepEqual(r.countries, [
      { country: "DE", scans: 2 },
      { country: "FR", scans: 1 },
    ]);
  });

  it("the summary lists every live code with its totals, most scanned first; a deleted code stays readable on its own", async () => {
    const r = await http("GET", "/v1/dynqrcodes/analytics?from=2026-02-01&to=2026-03-31", { key });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {
      from: "2026-02-01",
      to: "2026-03-31",
      tz: "UTC",
      total_scans: 9,
      unique_scans: 7,
      codes: [
        { code, name: "Poster", total_scans: 9, unique_scans: 7 },
        { code: quiet, name: "Nobody scans this", total_scans: 0, unique_scans: 0 },
      ],
    });
    const old = await http("GET", `/v1/dynqrcodes/${deleted}/analytics?from=2026-03-01&to=2026-03-01`, { key });
    assert.equal(old.status, 200);
    assert.deepEqual(
      [(old.body as { total_scans: number }).total_scans, (old.body as { unique_scans: number }).unique_scans],
      [2, 1],
    );
    assert.equal(
      (await http("GET", `/v1/dynqrcodes/${deleted}/analytics/export?from=2026-03-01&to=2026-03-01`, { key })).status,
      200,
    );
  });

  it("bad ranges are 400; unknown codes and other libraries' codes are 404", async () => {
    const cases: [string, string][] = [
      ["from=2026-03-05&to=2026-03-01", "to must not be before from"],
      ["from=2025-01-01&to=2026-01-02", "The range must be at most 366 days"],
      ["from=2026-02-30", "from must be a date like 2026-11-21"],
      ["to=yesterday", "to must be a date like 2026-11-21"],
      ["from=2026-3-1", "from must be a date like 2026-11-21"],
    ];
    for (const [query, error] of cases) {
      for (const path of [
        `/v1/dynqrcodes/${code}/analytics`,
        "/v1/dynqrcodes/analytics",
        `/v1/dynqrcodes/${code}/analytics/export`,
      ]) {
        const r = await http("GET", `${path}?${query}`, { key });
        assert.equal(r.status, 400, `${path}?${query}`);
        assert.deepEqual(r.body, { error }, `${path}?${query}`);
      }
    }
    assert.equal((await http("GET", "/v1/dynqrcodes/from=2026-01-01&to=2026-12-31/analytics", { key })).status, 404);
    const { key: stranger } = await personalKey();
    assert.equal((await http("GET", `/v1/dynqrcodes/${code}/analytics`, { key: stranger })).status, 404);
    assert.equal((await http("GET", `/v1/dynqrcodes/${code}/analytics/export`, { key: stranger })).status, 404);
    assert.equal((await http("GET", "/v1/dynqrcodes/NoSuch01/analytics", { key })).status, 404);
  });

  it("the scan export: header, one row per scan in the range, unique marked, streamed", async () => {
    const r = await fetch(
      `${process.env.BASE_URL}/v1/dynqrcodes/${code}/analytics/export?from=2026-02-27&to=2026-03-03`,
      { headers: { "x-api-key": key } },
    );
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "text/csv; charset=utf-8");
    assert.match(
      r.headers.get("content-disposition") ?? "",
      new RegExp(`^attachment; filename="scans-${code}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    assert.equal(r.headers.get("content-length"), null, "streamed, not buffered");
    const rows = parse(await r.text()) as string[][];
    assert.deepEqual(rows[0], ["scanned_at", "country", "device", "os", "browser", "unique", "destination"]);
    const { unique } = expected(PAST, "2026-02-27", "2026-03-03");
    assert.deepEqual(
      rows.slice(1),
      PAST.map((v, i) => [
        v.at,
        v.country ?? "ZZ",
        AGENTS[v.agent].device,
        AGENTS[v.agent].os,
        AGENTS[v.agent].browser,
        String(unique[i]),
        "https://example.com/a",
      ]),
    );
  });

  it("the same visitor scanning 50 times at once → 1 unique in the analytics", async () => {
    const fresh = await create("Rush");
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code: fresh } });
    await Promise.all(
      Array.from({ length: 50 }, () => http("GET", `/q/${fresh}`, { headers: { "user-agent": AGENTS.android.ua } })),
    );
    await scansOf(id, 50);
    const r = (await http("GET", `/v1/dynqrcodes/${fresh}/analytics`, { key })).body as {
      total_scans: number;
      unique_scans: number;
      devices: unknown;
    };
    assert.deepEqual([r.total_scans, r.unique_scans], [50, 1]);
    assert.deepEqual(r.devices, [{ device: "mobile", scans: 50 }]);
  });
});
