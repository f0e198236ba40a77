// Calendar days as YYYY-MM-DD, without a time zone (the analytics ranges' days), for the
// server and the browser alike.

/** The longest range `granularity=hour` takes. */
export const MAX_HOURLY_DAYS = 7;

export type DayRange = { from: string; to: string };

const DAY_MS = 86_400_000;

/** `date` (YYYY-MM-DD) moved by `days`. */
export const shiftDay = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The days of a range, both ends included. */
export const daysIn = ({ from, to }: DayRange) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;

/** The last `count` days of a range (By hour's 7 days of a longer range). */
export const lastDaysOf = ({ to }: DayRange, count: number): DayRange => ({ from: shiftDay(to, 1 - count), to });
