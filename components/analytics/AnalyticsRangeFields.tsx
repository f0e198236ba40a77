"use client";
// The analytics form's From, To and View. By hour takes at most 7 days: picking it on a longer
// range (the default 30 days) moves From to the range's last 7 days at once, and says so, rather
// than sending a range the report refuses. Without script the server cuts the range the same way.
import { useState } from "react";
import { daysIn, lastDaysOf, MAX_HOURLY_DAYS } from "@/server/analytics/calendarDays";

export function AnalyticsRangeFields({ from, to, hourly }: { from: string; to: string; hourly: boolean }) {
  const [range, setRange] = useState({ from, to });
  const [granularity, setGranularity] = useState(hourly ? "hour" : "day");
  const [moved, setMoved] = useState(false);
  const choose = (next: string) => {
    setGranularity(next);
    const whole = /^\d{4}-\d{2}-\d{2}$/.test(range.from) && /^\d{4}-\d{2}-\d{2}$/.test(range.to);
    const longer = next === "hour" && whole && daysIn(range) > MAX_HOURLY_DAYS;
    if (longer) setRange(lastDaysOf(range, MAX_HOURLY_DAYS));
    setMoved(longer);
  };
  return (
    <>
      <div>
        <label htmlFor="from">From</label>
        <input
          id="from"
          name="from"
          type="date"
          value={range.from}
          onChange={(e) => setRange({ ...range, from: e.target.value })}
        />
      </div>
      <div>
        <label htmlFor="to">To</label>
        <input
          id="to"
          name="to"
          type="date"
          value={range.to}
          onChange={(e) => setRange({ ...range, to: e.target.value })}
        />
      </div>
      <div>
        <label htmlFor="granularity">View</label>
        <select
          id="granularity"
          name="granularity"
          value={granularity}
          onChange={(e) => choose(e.target.value)}
          aria-describedby="granularity-note"
        >
          <option value="day">By day</option>
          <option value="hour">By hour (7 days at most)</option>
        </select>
      </div>
      <p id="granularity-note" className="muted full" role="status" data-testid="granularity-note">
        {moved &&
          `By hour shows at most ${MAX_HOURLY_DAYS} days: From moved to ${range.from}, the last ${MAX_HOURLY_DAYS} days up to ${range.to}.`}
      </p>
    </>
  );
}
