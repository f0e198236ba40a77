// The analytics page's range presets as links (they work without script): each keeps the time
// zone, the view and the comparison; a preset longer than By hour's 7 days switches to By day.
import Link from "next/link";
import { daysIn, MAX_HOURLY_DAYS } from "@/server/analytics/calendarDays";
import type { RangePreset } from "@/server/analytics/analyticsPeriods";

type Props = {
  path: string;
  presets: RangePreset[];
  from: string;
  to: string;
  tz: string;
  hourly: boolean;
  compare: boolean;
};

export function RangePresets({ path, presets, from, to, tz, hourly, compare }: Props) {
  return (
    <nav className="presets" aria-label="Ranges">
      {presets.map((p) => {
        const granularity = hourly && daysIn(p) <= MAX_HOURLY_DAYS ? "hour" : "day";
        const query = new URLSearchParams({
          from: p.from,
          to: p.to,
          tz,
          granularity,
          ...(compare ? { compare: "1" } : {}),
        });
        const current = p.from === from && p.to === to;
        return (
          <Link
            key={p.id}
            href={`${path}?${query}`}
            className={`button small ${current ? "" : "secondary"}`}
            aria-current={current ? "true" : undefined}
            data-testid={`preset-${p.id}`}
          >
            {p.label}
          </Link>
        );
      })}
    </nav>
  );
}
