// Days and hours in a time zone as spans of 15-minute UTC quarters (server/analytics/timeZones.ts):
// offsets, local midnights on days of 23 and 25 hours and where midnight does not exist, the
// spans of one offset across a clock change, and the zone names a request may give.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DomainError } from "../../server/platform/errors";
import {
  localDate,
  localTimeText,
  offsetMinutes,
  offsetText,
  QUARTER_MS,
  segmentsOf,
  startOfLocalDay,
  timeZoneOf,
} from "../../server/analytics/timeZones";

const q = (iso: string) => Date.parse(iso) / QUARTER_MS;
const iso = (quarter: number) => new Date(quarter * QUARTER_MS).toISOString();

describe("time zones", () => {
  it("a zone's offset at an instant, east positive, summer time included", () => {
    assert.equal(offsetMinutes("Europe/Berlin", Date.parse("2026-01-15T12:00:00Z")), 60);
    assert.equal(offsetMinutes("Europe/Berlin", Date.parse("2026-07-15T12:00:00Z")), 120);
    assert.equal(offsetMinutes("America/New_York", Date.parse("2026-01-15T12:00:00Z")), -300);
    assert.equal(offsetMinutes("Asia/Kathmandu", Date.parse("2026-01-15T12:00:00Z")), 345);
    assert.equal(offsetMinutes("Pacific/Chatham", Date.parse("2026-01-15T12:00:00Z")), 825);
  });

  it("the local day and time of an instant", () => {
    assert.equal(localDate("America/New_York", Date.parse("2026-04-01T02:00:00Z")), "2026-03-31");
    assert.equal(localDate("Asia/Tokyo", Date.parse("2026-03-31T15:00:00Z")), "2026-04-01");
    assert.equal(localTimeText(Date.parse("2026-03-01T08:30:00.999Z"), 330), "2026-03-01T14:00:00+05:30");
    assert.deepEqual([offsetText(-32), offsetText(0), offsetText(23)], ["-08:00", "+00:00", "+05:45"]);
  });

  it("a local day starts at its midnight; on a day the clocks change it is 23 or 25 hours long", () => {
    assert.equal(iso(startOfLocalDay("Europe/Berlin", "2026-03-29")), "2026-03-28T23:00:00.000Z");
    assert.equal(
      startOfLocalDay("Europe/Berlin", "2026-03-30") - startOfLocalDay("Europe/Berlin", "2026-03-29"),
      92,
      "23 hours",
    );
    assert.equal(
      startOfLocalDay("Europe/Berlin", "2026-10-26") - startOfLocalDay("Europe/Berlin", "2026-10-25"),
      100,
      "25 hours",
    );
    assert.equal(iso(startOfLocalDay("Asia/Kolkata", "2026-03-01")), "2026-02-28T18:30:00.000Z");
  });

  it("where midnight does not exist, the day starts at the first instant after it", () => {
    // Santiago moves its clocks from 24:00 to 01:00 on the first Sunday of September.
    assert.equal(iso(startOfLocalDay("America/Santiago", "2026-09-06")), "2026-09-06T04:00:00.000Z");
    assert.equal(
      localTimeText(startOfLocalDay("America/Santiago", "2026-09-06") * QUARTER_MS, -180),
      "2026-09-06T01:00:00-03:00",
    );
  });

  it("spans of one offset cover a range, split at the quarter the clocks change", () => {
    const [start, end] = [
      startOfLocalDay("Europe/Berlin", "2026-03-28"),
      startOfLocalDay("Europe/Berlin", "2026-03-31"),
    ];
    assert.deepEqual(segmentsOf("Europe/Berlin", start, end), [
      { from: start, to: q("2026-03-29T01:00:00Z"), offset: 4 },
      { from: q("2026-03-29T01:00:00Z"), to: end, offset: 8 },
    ]);
    assert.deepEqual(segmentsOf("UTC", 0, 96 * 400), [{ from: 0, to: 96 * 400, offset: 0 }]);
  });

  it("a zone name is taken in the database's spelling when only the case differs; others are refused", () => {
    assert.equal(timeZoneOf(undefined), "UTC");
    assert.equal(timeZoneOf("europe/berlin"), "Europe/Berlin");
    for (const bad of ["Mars/Olympus", "+05:30", ""]) {
      assert.throws(
        () => timeZoneOf(bad),
        (e: unknown) => e instanceof DomainError && e.message === "tz must be an IANA time zone such as Europe/Berlin",
        bad,
      );
    }
  });
});
