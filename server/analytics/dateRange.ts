// Ranges of calendar days in a time zone (UTC by default), as the analytics routes take them
// (`from`, `to`, `tz`), with the quarter hours they span (server/analytics/timeZones.ts).
import { z } from "zod";
import { now as clockNow } from "../platform/clock";
import { invalid } from "../platform/errors";
import { localDate, segmentsOf, startOfLocalDay, timeZoneOf, type Segment } from "./timeZones";

const DAY_MS = 86_400_000;
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** A YYYY-MM-DD that is a real calendar day, as milliseconds at 00:00 UTC; null otherwise. */
function parseDay(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || dayOf(new Date(ms)) !== value ? null : ms;
}

export const rangeQuery = z.object({
  from: z
    .string()
    .meta({ description: "First day, YYYY-MM-DD in `tz`, inclusive. Default: 29 days before `to`.", format: "date" })
    .optional(),
  to: z
    .string()
    .meta({ description: "Last day, YYYY-MM-DD in `tz`, inclusive. Default: today in `tz`.", format: "date" })
    .optional(),
  tz: z
    .string()
    .meta({
      description:
        "IANA time zone of the days and hours, such as Europe/Berlin or Asia/Kolkata (days of 23 or 25 hours included). Default: UTC.",
      example: "Europe/Berlin",
    })
    .optional(),
});
export type RangeQuery = z.infer<typeof rangeQuery>;

/**
 * The days from `from` to `to` in `tz`, and the quarter hours [start, end) from the first one's
 * midnight to the midnight after the last one, in spans of one UTC offset (`segments`).
 */
export type Range = {
  from: string;
  to: string;
  days: string[];
  tz: string;
  start: number;
  end: number;
  segments: Segment[];
};

/** `from`/`to`/`tz` per the contract: defaults to the last 30 days in UTC (today by server/platform/clock.ts); 400 when malformed, reversed or over 366 days. */
export function resolveRange(query: RangeQuery, now = clockNow()): Range {
  const tz = timeZoneOf(query.tz);
  const toMs = query.to === undefined ? parseDay(localDate(tz, now.getTime()))! : parseDay(query.to);
  if (toMs === null) throw invalid("to must be a date like 2026-11-21");
  const fromMs = query.from === undefined ? toMs - (DEFAULT_DAYS - 1) * DAY_MS : parseDay(query.from);
  if (fromMs === null) throw invalid("from must be a date like 2026-11-21");
  if (toMs < fromMs) throw invalid("to must not be before from");
  const count = (toMs - fromMs) / DAY_MS + 1;
  if (count > MAX_DAYS) throw invalid(`The range must be at most ${MAX_DAYS} days`);
  const days = Array.from({ length: count }, (_, i) => dayOf(new Date(fromMs + i * DAY_MS)));
  const start = startOfLocalDay(tz, days[0]);
  const end = startOfLocalDay(tz, dayOf(new Date(toMs + DAY_MS)));
  return { from: days[0], to: days[days.length - 1], days, tz, start, end, segments: segmentsOf(tz, start, end) };
}
