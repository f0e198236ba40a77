import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { changeOf, pageRange, previousPeriod, rangePresets } from "../../server/analytics/analyticsPeriods";

const days = (presets: { id: string; from: string; to: string }[]) =>
  Object.fromEntries(presets.map((p) => [p.id, `${p.from}..${p.to}`]));

describe("analytics periods", () => {
  it("presets are the days of the viewer's zone, not UTC's", () => {
    // 02:00 UTC on 1 April is still 31 March in New York.
    const at = new Date("2026-04-01T02:00:00Z");
    assert.deepEqual(days(rangePresets("America/New_York", at)), {
      today: "2026-03-31..2026-03-31",
      "7d": "2026-03-25..2026-03-31",
      "30d": "2026-03-02..2026-03-31",
      "this-month": "2026-03-01..2026-03-31",
      "last-month": "2026-02-01..2026-02-28",
    });
    assert.deepEqual(days(rangePresets("UTC", at)), {
      today: "2026-04-01..2026-04-01",
      "7d": "2026-03-26..2026-04-01",
      "30d": "2026-03-03..2026-04-01",
      "this-month": "2026-04-01..2026-04-01",
      "last-month": "2026-03-01..2026-03-31",
    });
    // January: last month is December of the year before.
    assert.equal(
      days(rangePresets("Asia/Tokyo", new Date("2027-01-10T00:00:00Z")))["last-month"],
      "2026-12-01..2026-12-31",
    );
  });

  it("the previous period is as long and ends the day before", () => {
    assert.deepEqual(previousPeriod({ from: "2026-03-25", to: "2026-03-31" }), {
      from: "2026-03-18",
      to: "2026-03-24",
    });
    assert.deepEqual(previousPeriod({ from: "2026-03-01", to: "2026-03-01" }), {
      from: "2026-02-28",
      to: "2026-02-28",
    });
    assert.deepEqual(previousPeriod({ from: "2028-03-01", to: "2028-03-31" }), {
      from: "2028-01-30",
      to: "2028-02-29",
    });
  });

  it("By hour over more than 7 days shows the range's last 7 days; 7 days or fewer stay", () => {
    const long = pageRange({ from: "2026-03-01", to: "2026-03-30", tz: "Europe/Berlin", granularity: "hour" });
    assert.equal(long.cut, true);
    assert.deepEqual(
      [long.query.from, long.query.to, long.query.tz, long.query.granularity],
      ["2026-03-24", "2026-03-30", "Europe/Berlin", "hour"],
    );
    assert.deepEqual([long.previous.from, long.previous.to], ["2026-03-17", "2026-03-23"]);
    const week = pageRange({ from: "2026-03-24", to: "2026-03-30", granularity: "hour" });
    assert.deepEqual([week.cut, week.query.from, week.query.tz], [false, "2026-03-24", "UTC"]);
    const daily = pageRange({ from: "2026-03-01", to: "2026-03-30" });
    assert.deepEqual([daily.cut, daily.query.from], [false, "2026-03-01"]);
  });

  it("the change is a fraction of the previous figure, null without one", () => {
    assert.equal(changeOf(4, 3), 1 / 3);
    assert.equal(changeOf(1, 2), -0.5);
    assert.equal(changeOf(0, 0), 0);
    assert.equal(changeOf(5, 0), null);
  });
});
