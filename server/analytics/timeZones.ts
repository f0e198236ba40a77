// Calendar days and hours in an IANA time zone (contract: "Analytics in a time zone"), as spans
// of 15-minute UTC buckets ("quarters": epoch milliseconds / 900,000). Every offset a zone uses
// today is a whole number of quarter hours (+05:30, +05:45, +12:45), so each local day and hour
// begins on a quarter and is an exact sum of the ScanQuarter rollups, 23- and 25-hour days
// included. Offsets come from the runtime's own time zone database (Intl).
import { invalid } from "../platform/errors";
import { memoize } from "../platform/memoize";

export const QUARTER_MS = 900_000;
export const QUARTERS_A_DAY = 96;
const DAY_MS = 86_400_000;

const INVALID_ZONE = "tz must be an IANA time zone such as Europe/Berlin";

const formatterOf = memoize("timeZone.formatter", (tz): Intl.DateTimeFormat | null => {
  // Zone names start with a letter; this also refuses the "+05:30" offsets some runtimes take.
  if (!/^[A-Za-z]/.test(tz)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
  } catch {
    return null;
  }
});

/** The zone a request names (default UTC), spelled as the time zone database does when only the case differs; 400 when unknown. */
export function timeZoneOf(tz: string | undefined): string {
  if (tz === undefined) return "UTC";
  const formatter = formatterOf(tz);
  if (!formatter) throw invalid(INVALID_ZONE);
  const resolved = formatter.resolvedOptions().timeZone;
  return resolved.toLowerCase() === tz.toLowerCase() ? resolved : tz;
}

/** The zone's offset from UTC at an instant, in minutes (east positive). */
export function offsetMinutes(tz: string, epochMs: number): number {
  const parts = formatterOf(tz)!.formatToParts(epochMs);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"));
  return Math.round((wall - Math.floor(epochMs / 60_000) * 60_000) / 60_000);
}

const offsetQuarters = (tz: string, quarter: number) => offsetMinutes(tz, quarter * QUARTER_MS) / 15;

/** YYYY-MM-DD of a day number (days since 1970-01-01). */
export const dateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The calendar day in the zone at an instant. */
export const localDate = (tz: string, epochMs: number) =>
  new Date(epochMs + offsetMinutes(tz, epochMs) * 60_000).toISOString().slice(0, 10);

/** "+05:30", "-08:00", "+00:00" for an offset in quarters. */
export function offsetText(quarters: number): string {
  const minutes = Math.abs(quarters * 15);
  return `${quarters < 0 ? "-" : "+"}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** An instant as ISO 8601 local time with the zone's offset, whole seconds: "2026-03-01T14:00:00+05:30". */
export function localTimeText(epochMs: number, offsetMin: number): string {
  return `${new Date(epochMs + offsetMin * 60_000).toISOString().slice(0, 19)}${offsetText(offsetMin / 15)}`;
}

/** The first quarter of a calendar day (YYYY-MM-DD) in the zone: its local midnight, or the first instant after it where midnight does not exist. */
export function startOfLocalDay(tz: string, date: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`) / QUARTER_MS;
  const local = (q: number) => q + offsetQuarters(tz, q);
  let q = wall - offsetQuarters(tz, wall);
  q = wall - offsetQuarters(tz, q);
  while (local(q - 1) >= wall) q -= 1;
  while (local(q) < wall) q += 1;
  return q;
}

/** A span of quarters [from, to) over which the zone keeps one offset (in quarters). */
export type Segment = { from: number; to: number; offset: number };

/**
 * The spans of one offset that cover the quarters [start, end): one, or more where the clocks
 * change. Remembered: finding them asks Intl about every day of the range (2 ms for a year).
 */
export const segmentsOf = (tz: string, start: number, end: number): Segment[] => spansOf(`${tz}|${start}|${end}`);

const spansOf = memoize(
  "timeZone.segments",
  (key): Segment[] => {
    const [tz, startText, endText] = key.split("|");
    const [start, end] = [Number(startText), Number(endText)];
    const segments: Segment[] = [];
    let from = start;
    let offset = offsetQuarters(tz, start);
    let checked = start;
    // A day at a time (no zone changes its clocks twice in a day), then halving to the quarter of the change.
    while (checked < end - 1) {
      const probe = Math.min(checked + QUARTERS_A_DAY, end - 1);
      if (offsetQuarters(tz, probe) === offset) {
        checked = probe;
        continue;
      }
      let [lo, hi] = [checked, probe];
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetQuarters(tz, mid) === offset) lo = mid;
        else hi = mid;
      }
      segments.push({ from, to: hi, offset });
      [from, checked, offset] = [hi, hi, offsetQuarters(tz, hi)];
    }
    segments.push({ from, to: end, offset });
    return segments;
  },
  1_000,
);

/** The zones the pages offer: UTC, then the time zone database's canonical names. */
export const zoneNames = (): string[] => ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];
