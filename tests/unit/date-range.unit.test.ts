import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DomainError } from "../../server/platform/errors";
import { resolveRange } from "../../server/analytics/dateRange";

const now = new Date("2026-11-23T10:00:00Z");
const refused = (query: { from?: string; to?: string }, message: string) =>
  assert.throws(
    () => resolveRange(query, now),
    (e: unknown) => e instanceof DomainError && e.code === "invalid" && e.message === message,
  );

describe("date ranges", () => {
  it("defaults to the last 30 days up to today (UTC)", () => {
    const r = resolveRange({}, now);
    assert.deepEqual([r.from, r.to, r.days.length], ["2026-10-25", "2026-11-23", 30]);
  });

  it("from alone runs to today; to alone goes back 29 days", () => {
    assert.equal(resolveRange({ from: "2026-11-20" }, now).days.length, 4);
    assert.equal(resolveRange({ to: "2026-03-01" }, now).from, "2026-01-31");
  });

  it("one day, leap days and month ends", () => {
    assert.deepEqual(resolveRange({ from: "2028-02-28", to: "2028-03-01" }, now).days, [
      "2028-02-28",
      "2028-02-29",
      "2028-03-01",
    ]);
    assert.deepEqual(resolveRange({ from: "2026-11-23", to: "2026-11-23" }, now).days, ["2026-11-23"]);
  });

  it("366 days pass, 367 do not", () => {
    assert.equal(resolveRange({ from: "2025-11-23", to: "2026-11-23" }, now).days.length, 366);
    refused({ from: "2025-11-22", to: "2026-11-23" }, "The range must be at most 366 days");
  });

  it("malformed, impossible and reversed days are refused with the field's message", () => {
    refused({ from: "2026-2-1" }, "from must be a date like 2026-11-21");
    refused({ to: "2026-02-30" }, "to must be a date like 2026-11-21");
    refused({ from: "2026-13-01" }, "from must be a date like 2026-11-21");
    refused({ from: "2026-11-10", to: "2026-11-09" }, "to must not be before from");
  });
});
