// Analytics in a time zone (contract: "Analytics in a time zone"), against a raw scan list with
// known instants: scans every 13 min 7 s through the days around the clock changes of 2026
// (Europe/Berlin, America/New_York, America/Los_Angeles, Pacific/Chatham) and a few ordinary
// days, written through the real batch writer in time order. Every expected number is counted
// here from that list, with the runtime's time zone database and nothing of the server's.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { newScan } from "../../server/scan/rows";
import { writeScans } from "../../server/scan/write";
import { db } from "../../server/platform/db";
import { generateKey, http, personalKey, revokeKey } from "../helpers";

const AGENTS = [
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
];
const COUNTRIES = ["DE", "IN", "US", "NZ", "JP"];
/** UTC windows of scans: the days around each clock change of 2026 in the zones tested, and two plain weeks. */
const WINDOWS = [
  ["2026-03-05T00:00:00Z", "2026-03-11T00:00:00Z"], // New York and Los Angeles: 23-hour 8 March
  ["2026-03-27T12:00:00Z", "2026-03-30T12:00:00Z"], // Berlin: 23-hour 29 March
  ["2026-04-03T00:00:00Z", "2026-04-06T12:00:00Z"], // Chatham: 25-hour 5 April
  ["2026-09-25T12:00:00Z", "2026-09-28T12:00:00Z"], // Chatham: 23-hour 27 September
  ["2026-10-23T12:00:00Z", "2026-10-26T12:00:00Z"], // Berlin: 25-hour 25 October
  ["2026-10-30T00:00:00Z", "2026-11-03T00:00:00Z"], // New York and Los Angeles: 25-hour 1 November
];
const ZONES = [
  "UTC",
  "Asia/Tokyo",
  "America/Los_Angeles",
  "America/New_York",
  "Europe/Berlin",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Pacific/Chatham",
];

type Scan = { at: number; visitor: number; country: string; unique: boolean };
const scans: Scan[] = [];
for (const [from, to] of WINDOWS)
  for (let t = Date.parse(from) + 61_000; t < Date.parse(to); t += 787_000)
    scans.push({ at: t, visitor: scans.length % 7, country: COUNTRIES[scans.length % 5], unique: false });
// Unique: the first scan of its visitor on its UTC day (the scans are written in time order).
const seen = new Set<string>();
for (const s of scans) {
  const key = `${new Date(s.at).toISOString().slice(0, 10)}|${s.visitor}`;
  s.unique = !seen.has(key);
  seen.add(key);
}

const formats = new Map<string, Intl.DateTimeFormat>();
const known = new Map<string, { date: string; hour: string; time: string }>();
/** Local date, hour and time with the offset ("+05:45") of an instant, from Intl alone. */
function local(tz: string, at: number) {
  const cached = known.get(`${tz}|${at}`);
  if (cached) return cached;
  if (!formats.has(tz))
    formats.set(
      tz,
      new Intl.DateTimeFormat("en-US", {
        timeZone: tz,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        timeZoneName: "longOffset",
      }),
    );
  const p = Object.fromEntries(
    formats
      .get(tz)!
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  const offset = p.timeZoneName === "GMT" ? "+00:00" : p.timeZoneName.slice(3);
  const date = `${p.year}-${p.month}-${p.day}`;
  const answer = {
    date,
    hour: `${date}T${p.hour}:00:00${offset}`,
    time: `${date}T${p.hour}:${p.minute}:${p.second}${offset}`,
  };
  known.set(`${tz}|${at}`, answer);
  return answer;
}

const tally = (list: Scan[]) => ({ scans: list.length, unique_scans: list.filter((s) => s.unique).length });

/**
 * Every hour of the local days from..to, in order, from the quarter hours they contain: its key
 * (local hour and offset) and its label (its first quarter's local time, which is HH:00 except
 * where a change of clocks cuts an hour: Chatham's 02:45+12:45).
 */
function hoursOf(tz: string, from: string, to: string) {
  const hours: { key: string; label: string }[] = [];
  for (
    let t = Date.parse(`${from}T00:00:00Z`) - 15 * 3_600_000;
    t < Date.parse(`${to}T00:00:00Z`) + 39 * 3_600_000;
    t += 900_000
  ) {
    const l = local(tz, t);
    if (l.date >= from && l.date <= to && hours.at(-1)?.key !== l.hour) hours.push({ key: l.hour, label: l.time });
  }
  return hours;
}

function daysOf(from: string, to: string) {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

describe("analytics in a time zone", () => {
  let key: string;
  let keyId: string;
  let userId: string;
  let code: string;
  const get = async (path: string) => {
    const r = await http("GET", path, { key });
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    return r.body as Record<string, unknown>;
  };

  before(async () => {
    ({
      key,
      keyId,
      user: { id: userId },
    } = await personalKey());
    const r = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: "https://example.com/tz", name: "Zones" },
    });
    code = (r.body as { created: { code: string }[] }).created[0].code;
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code } });
    const batch = scans.map((s) =>
      newScan({
        dynamicCodeId: id,
        scannedAt: s.at,
        destinationUrl: "https://example.com/tz",
        userAgent: AGENTS[s.visitor % 3],
        address: `198.51.100.${s.visitor}`,
        countryHeader: s.country,
      }),
    );
    for (let i = 0; i < batch.length; i += 500) await writeScans(batch.slice(i, i + 500));
  });

  it("each day's total and unique scans in every zone equal the raw list's, as do the breakdowns", async () => {
    const [from, to] = ["2026-03-01", "2026-11-10"];
    for (const tz of ZONES) {
      const body = await get(`/v1/dynqrcodes/${code}/analytics?from=${from}&to=${to}&tz=${encodeURIComponent(tz)}`);
      const inRange = scans.filter((s) => local(tz, s.at).date >= from && local(tz, s.at).date <= to);
      const byDate = new Map<string, Scan[]>();
      for (const s of scans) byDate.set(local(tz, s.at).date, [...(byDate.get(local(tz, s.at).date) ?? []), s]);
      const daily = daysOf(from, to).map((date) => ({ date, ...tally(byDate.get(date) ?? []) }));
      assert.equal(body.tz, tz);
      assert.deepEqual(body.daily, daily, tz);
      assert.deepEqual([body.total_scans, body.unique_scans], [tally(inRange).scans, tally(inRange).unique_scans], tz);
      assert.equal(body.hourly, undefined);
    }
  });

  it("a range that cuts a window in the middle: the days, the breakdowns and the summary count exactly the local days' scans", async () => {
    for (const tz of ZONES) {
      for (const [from, to] of [
        ["2026-03-08", "2026-03-09"],
        ["2026-04-05", "2026-04-05"],
        ["2026-10-25", "2026-11-01"],
      ]) {
        const q = `from=${from}&to=${to}&tz=${encodeURIComponent(tz)}`;
        const inRange = scans.filter((s) => local(tz, s.at).date >= from && local(tz, s.at).date <= to);
        const body = await get(`/v1/dynqrcodes/${code}/analytics?${q}`);
        const countries = new Map<string, number>();
        for (const s of inRange) countries.set(s.country, (countries.get(s.country) ?? 0) + 1);
        assert.deepEqual(
          body.countries,
          [...countries]
            .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
            .map(([country, n]) => ({ country, scans: n })),
          `${tz} ${from}..${to}`,
        );
        assert.equal(
          (body.devices as { scans: number }[]).reduce((n, d) => n + d.scans, 0),
          inRange.length,
        );
        const summary = await get(`/v1/dynqrcodes/analytics?${q}`);
        assert.equal(summary.tz, tz);
        assert.deepEqual(
          (summary.codes as { code: string }[]).find((c) => c.code === code),
          { code, name: "Zones", ...{ total_scans: inRange.length, unique_scans: tally(inRange).unique_scans } },
          `${tz} ${from}..${to}`,
        );
      }
    }
  });

  it("granularity=hour: every local hour (23 and 25 on the days the clocks change), each with the raw list's counts", async () => {
    const cases: [string, string, string, number][] = [
      ["America/Los_Angeles", "2026-03-08", "2026-03-08", 23],
      ["America/Los_Angeles", "2026-11-01", "2026-11-01", 25],
      ["America/New_York", "2026-03-08", "2026-03-08", 23],
      ["America/New_York", "2026-11-01", "2026-11-01", 25],
      ["Europe/Berlin", "2026-03-29", "2026-03-29", 23],
      ["Europe/Berlin", "2026-10-25", "2026-10-25", 25],
      // Chatham changes its clocks at 03:45 and 02:45: the hour it cuts is two buckets (25 hours in 26, 23 in 24).
      ["Pacific/Chatham", "2026-04-05", "2026-04-05", 26],
      ["Pacific/Chatham", "2026-09-27", "2026-09-27", 24],
      ["Asia/Kolkata", "2026-03-05", "2026-03-11", 7 * 24],
      ["Asia/Kathmandu", "2026-10-30", "2026-11-02", 4 * 24],
      ["Asia/Tokyo", "2026-03-08", "2026-03-09", 48],
      ["UTC", "2026-03-29", "2026-03-29", 24],
    ];
    for (const [tz, from, to, hours] of cases) {
      const body = await get(
        `/v1/dynqrcodes/${code}/analytics?from=${from}&to=${to}&tz=${encodeURIComponent(tz)}&granularity=hour`,
      );
      const want = hoursOf(tz, from, to).map(({ key, label }) => ({
        hour: label,
        ...tally(scans.filter((s) => local(tz, s.at).hour === key)),
      }));
      assert.equal(want.length, hours, `${tz} ${from}`);
      assert.deepEqual(body.hourly, want, `${tz} ${from}..${to}`);
      assert.equal(body.daily, undefined);
      assert.equal(
        body.total_scans,
        want.reduce((n, h) => n + h.scans, 0),
      );
    }
  });

  it("the export keeps scanned_at in UTC and adds scanned_at_local with tz; the rows are the local days'", async () => {
    const tz = "Asia/Kathmandu";
    const r = await fetch(
      `${process.env.BASE_URL}/v1/dynqrcodes/${code}/analytics/export?from=2026-03-08&to=2026-03-08&tz=${tz}`,
      { headers: { "x-api-key": key } },
    );
    assert.equal(r.status, 200);
    assert.match(
      r.headers.get("content-disposition") ?? "",
      new RegExp(`filename="scans-${code}-Asia_Kathmandu-\\d{4}-\\d{2}-\\d{2}\\.csv"`),
    );
    const rows = parse(await r.text()) as string[][];
    assert.deepEqual(rows[0], [
      "scanned_at",
      "scanned_at_local",
      "country",
      "device",
      "os",
      "browser",
      "unique",
      "destination",
    ]);
    const want = scans.filter((s) => local(tz, s.at).date === "2026-03-08");
    assert.deepEqual(
      rows.slice(1).map((row) => [row[0], row[1], row[2], row[6]]),
      want.map((s) => [
        `${new Date(s.at).toISOString().slice(0, 19)}Z`,
        local(tz, s.at).time,
        s.country,
        String(s.unique),
      ]),
    );
    const plain = parse(
      await (
        await fetch(`${process.env.BASE_URL}/v1/dynqrcodes/${code}/analytics/export?from=2026-03-08&to=2026-03-08`, {
          headers: { "x-api-key": key },
        })
      ).text(),
    ) as string[][];
    assert.deepEqual(plain[0], ["scanned_at", "country", "device", "os", "browser", "unique", "destination"]);
    assert.equal(plain.length - 1, scans.filter((s) => new Date(s.at).toISOString().startsWith("2026-03-08")).length);
  });

  it("an unknown zone, a bad granularity and an hourly range over 7 days are 400 with the contract's messages", async () => {
    for (const tz of ["Mars/Olympus_Mons", "+05:30", "", "Europe/Berlin%00"]) {
      // A new key of the same account for each zone: 12 requests in a row would empty one key's
      // bucket (10), and an account has one live personal key.
      await revokeKey(keyId, userId);
      ({
        key,
        summary: { id: keyId },
      } = await generateKey(userId, "personal"));
      for (const path of [
        `/v1/dynqrcodes/${code}/analytics`,
        "/v1/dynqrcodes/analytics",
        `/v1/dynqrcodes/${code}/analytics/export`,
      ]) {
        const r = await http("GET", `${path}?tz=${tz === "+05:30" ? "%2B05:30" : tz}`, { key });
        assert.equal(r.status, 400, `${path} ${tz}`);
        assert.deepEqual(r.body, { error: "tz must be an IANA time zone such as Europe/Berlin" });
      }
    }
    assert.deepEqual((await http("GET", `/v1/dynqrcodes/${code}/analytics?granularity=minute`, { key })).body, {
      error: "granularity must be day or hour",
    });
    const long = await http("GET", `/v1/dynqrcodes/${code}/analytics?from=2026-03-01&to=2026-03-08&granularity=hour`, {
      key,
    });
    assert.equal(long.status, 400);
    assert.deepEqual(long.body, { error: "granularity=hour takes a range of at most 7 days" });
    assert.equal(
      (await http("GET", `/v1/dynqrcodes/${code}/analytics?from=2026-03-01&to=2026-03-07&granularity=hour`, { key }))
        .status,
      200,
    );
  });
});
