// The analytics page's periods: the presets (today, 7 days, 30 days, this month, last month in
// the page's time zone, read from server/platform/clock.ts so that tests set the day), By hour's range
// (at most 7 days: a longer range is cut to its last 7 days instead of refused) and the
// previous period a range is compared with (as long, immediately before it).
import { now } from "../platform/clock";
import { resolveRange, type RangeQuery } from "./dateRange";
import { daysIn, lastDaysOf, MAX_HOURLY_DAYS, shiftDay as shift, type DayRange } from "./calendarDays";
import { localDate } from "./timeZones";

export type PeriodQuery = RangeQuery & { granularity?: string };

export const RANGE_PRESETS = [
  { id: "today", label: "Today" },
  { id: "7d", label: "Last 7 days" },
  { id: "30d", label: "Last 30 days" },
  { id: "this-month", label: "This month" },
  { id: "last-month", label: "Last month" },
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number] & DayRange;

/** The presets' days in the zone at `at` (the clock's now unless given). */
export function rangePresets(tz: string, at: Date = now()): RangePreset[] {
  const today = localDate(tz, at.getTime());
  const firstOfMonth = `${today.slice(0, 8)}01`;
  const lastMonthEnd = shift(firstOfMonth, -1);
  const days: Record<RangePreset["id"], DayRange> = {
    today: { from: today, to: today },
    "7d": { from: shift(today, -6), to: today },
    "30d": { from: shift(today, -29), to: today },
    "this-month": { from: firstOfMonth, to: today },
    "last-month": { from: `${lastMonthEnd.slice(0, 8)}01`, to: lastMonthEnd },
  };
  return RANGE_PRESETS.map((p) => ({ ...p, ...days[p.id] }));
}

/** The range as long as `range` that ends the day before it starts. */
export function previousPeriod(range: DayRange): DayRange {
  return { from: shift(range.from, -daysIn(range)), to: shift(range.from, -1) };
}

/**
 * The range the page shows for what was asked: the asked range, except that By hour over more
 * than 7 days (the menu's choice on the default 30 days, an old link) shows the range's last 7
 * days (`cut`). 400 (DomainError) for a malformed range, as the API's.
 */
export function pageRange(asked: PeriodQuery): {
  query: PeriodQuery & DayRange;
  cut: boolean;
  previous: PeriodQuery & DayRange;
} {
  const { from, to, tz } = resolveRange(asked);
  const cut = asked.granularity === "hour" && daysIn({ from, to }) > MAX_HOURLY_DAYS;
  const range = cut ? lastDaysOf({ from, to }, MAX_HOURLY_DAYS) : { from, to };
  const query = { ...asked, tz, ...range };
  return { query, cut, previous: { ...query, ...previousPeriod(range) } };
}

/** The change from `before` to `after` as a fraction (0.5: +50 %); null when `before` is 0 (no base to compare with). */
export const changeOf = (after: number, before: number): number | null =>
  before === 0 ? (after === 0 ? 0 : null) : (after - before) / before;
