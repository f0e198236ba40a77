// The scan writer's pure parts: the rollup rows (server/scan/recorder.ts) a batch adds to
// ScanDaily and ScanQuarter, in one global order (issue 38: two writers over the same codes
// take their rows in the same order, so they never wait for each other in a circle), and the
// user agent's device, OS and browser, and whether it is counted at all (server/scan/visitor.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { rollupsOf } from "../../server/scan/rollups";
import type { ScanRow } from "../../server/scan/rows";
import { describeAgent, isBotAgent } from "../../server/scan/visitor";
import { UA } from "./fixtures/user-agents";

const QUARTER = 900_000;
const at = (iso: string) => Date.parse(iso);

/** A stored row with only what the rollups read set to something meaningful. */
function row(
  code: string,
  iso: string,
  country: string,
  device: string,
  os: string,
  browser: string,
  unique = 0,
): ScanRow {
  return {
    id: `scan_${code}_${iso}`,
    dynamicCodeId: code,
    scannedAt: iso,
    day: iso.slice(0, 10),
    quarter: Math.floor(at(iso) / QUARTER),
    country,
    device,
    os,
    browser,
    visitorHash: "h",
    unique,
    destinationUrl: "https://example.com/",
    visitor: "v",
  };
}

const keyOf = (r: readonly unknown[]) => r.slice(0, 4).join("|");

describe("rollups of a batch", () => {
  it("each day and quarter gets a total and one row per value of each dimension, scans and unique scans summed", () => {
    const scans = [
      row("c1", "2026-03-01T10:00:05.000Z", "DE", "mobile", "iOS", "Mobile Safari", 1),
      row("c1", "2026-03-01T10:07:00.000Z", "DE", "mobile", "iOS", "Mobile Safari", 1),
      row("c1", "2026-03-01T10:14:59.000Z", "DE", "mobile", "iOS", "Mobile Safari", 0),
      row("c1", "2026-03-01T10:15:00.000Z", "US", "desktop", "Windows", "Chrome", 1),
    ];
    const { daily, quarters } = rollupsOf(scans);
    assert.deepEqual(daily, [
      ["c1", "2026-03-01", "browser", "Chrome", 1, 1],
      ["c1", "2026-03-01", "browser", "Mobile Safari", 3, 2],
      ["c1", "2026-03-01", "country", "DE", 3, 2],
      ["c1", "2026-03-01", "country", "US", 1, 1],
      ["c1", "2026-03-01", "device", "desktop", 1, 1],
      ["c1", "2026-03-01", "device", "mobile", 3, 2],
      ["c1", "2026-03-01", "os", "Windows", 1, 1],
      ["c1", "2026-03-01", "os", "iOS", 3, 2],
      ["c1", "2026-03-01", "total", "", 4, 3],
    ]);
    // 10:15:00 opens the next quarter hour: two quarters, five rows each.
    const q = Math.floor(at("2026-03-01T10:00:00Z") / QUARTER);
    assert.deepEqual(
      quarters.filter((r) => r[2] === "total"),
      [
        ["c1", q, "total", "", 3, 2],
        ["c1", q + 1, "total", "", 1, 1],
      ],
    );
    assert.equal(quarters.length, 10);
  });

  it("codes and days are summed apart", () => {
    const { daily } = rollupsOf([
      row("a", "2026-03-01T23:59:59.999Z", "DE", "mobile", "iOS", "Safari"),
      row("a", "2026-03-02T00:00:00.000Z", "DE", "mobile", "iOS", "Safari"),
      row("b", "2026-03-01T12:00:00.000Z", "DE", "mobile", "iOS", "Safari"),
    ]);
    const totals = daily.filter((r) => r[2] === "total").map((r) => [r[0], r[1], r[4]]);
    assert.deepEqual(totals, [
      ["a", "2026-03-01", 1],
      ["a", "2026-03-02", 1],
      ["b", "2026-03-01", 1],
    ]);
  });

  it("an empty batch adds nothing", () => {
    assert.deepEqual(rollupsOf([]), { daily: [], quarters: [] });
  });

  const scanArb = fc
    .record({
      // "c10" before "c9": the order is the keys' code units, the same in every process.
      code: fc.constantFrom("c1", "c2", "c10", "c9"),
      // Across midnight: two days, eight quarters.
      ms: fc.integer({ min: at("2026-03-01T23:00:00Z"), max: at("2026-03-02T00:59:59Z") }),
      country: fc.constantFrom("DE", "US", "ZZ"),
      device: fc.constantFrom("mobile", "desktop"),
      os: fc.constantFrom("iOS", "Android", "Windows"),
      browser: fc.constantFrom("Chrome", "Safari"),
      unique: fc.constantFrom(0, 1),
    })
    .map((s) => row(s.code, new Date(s.ms).toISOString(), s.country, s.device, s.os, s.browser, s.unique));

  it("rows come in one global order, the keys' (code, bucket, dimension, value), whatever order the batch had (property)", () => {
    fc.assert(
      fc.property(
        fc
          .array(scanArb, { minLength: 1, maxLength: 40 })
          .chain((scans) => fc.tuple(fc.constant(scans), fc.shuffledSubarray(scans, { minLength: scans.length }))),
        ([scans, shuffled]) => {
          const first = rollupsOf(scans);
          assert.deepEqual(rollupsOf(shuffled), first);
          for (const rows of [first.daily, first.quarters]) {
            const keys = rows.map(keyOf);
            assert.deepEqual(keys, [...keys].sort(), "sorted by the key's code units");
            assert.equal(new Set(keys).size, keys.length, "one row per key");
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("two batches over shared keys take the shared rows in the same relative order (no lock cycle between two writers)", () => {
    fc.assert(
      fc.property(
        fc.array(scanArb, { minLength: 1, maxLength: 30 }),
        fc.array(scanArb, { minLength: 1, maxLength: 30 }),
        (a, b) => {
          const [ka, kb] = [rollupsOf(a).daily.map(keyOf), rollupsOf(b).daily.map(keyOf)];
          const shared = new Set(ka.filter((k) => kb.includes(k)));
          assert.deepEqual(
            ka.filter((k) => shared.has(k)),
            kb.filter((k) => shared.has(k)),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("totals equal the batch: each dimension's rows add up to the scans and unique scans (property)", () => {
    fc.assert(
      fc.property(fc.array(scanArb, { maxLength: 40 }), (scans) => {
        const { daily } = rollupsOf(scans);
        const uniques = scans.reduce((n, s) => n + s.unique, 0);
        for (const dimension of ["total", "country", "device", "os", "browser"]) {
          const rows = daily.filter((r) => r[2] === dimension);
          assert.equal(
            rows.reduce((n, r) => n + (r[4] as number), 0),
            scans.length,
            dimension,
          );
          assert.equal(
            rows.reduce((n, r) => n + (r[5] as number), 0),
            uniques,
            dimension,
          );
        }
      }),
    );
  });
});

describe("user agents", () => {
  it("phones and tablets by their device type; a desktop OS without one is a desktop; anything else is other", () => {
    const described = Object.fromEntries(
      Object.entries(UA).map(([name, ua]) => [name, Object.values(describeAgent(ua)).join(" / ")]),
    );
    assert.deepEqual(described, {
      iphone: "mobile / iOS / Mobile Safari",
      ipad: "tablet / iOS / Mobile Safari",
      android: "mobile / Android / Chrome",
      windows: "desktop / Windows / Chrome",
      mac: "desktop / Mac OS / Safari",
      linux: "desktop / Linux / Firefox",
      chromebook: "desktop / Chromium OS / Chrome",
      tv: "other / Tizen / Samsung Internet",
    });
    assert.deepEqual(describeAgent("hello"), { device: "other", os: "Unknown", browser: "Unknown" });
  });

  it("bots, link previews, scripts and an empty agent are not counted; browsers are", () => {
    for (const bot of [
      "",
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "curl/8.5.0",
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "WhatsApp/2.23.20.0",
    ]) {
      assert.equal(isBotAgent(bot), true, bot);
    }
    for (const person of Object.values(UA)) assert.equal(isBotAgent(person), false, person);
  });
});
