import { notFound, redirect } from "next/navigation";
import { AnalyticsRangeFields } from "@/components/analytics/AnalyticsRangeFields";
import { DailyChart } from "@/components/analytics/DailyChart";
import { LivePanel } from "@/components/analytics/LivePanel";
import { PeriodComparison } from "@/components/analytics/PeriodComparison";
import { RangePresets } from "@/components/analytics/RangePresets";
import { TimeZoneField } from "@/components/analytics/TimeZoneField";
import { countryName, plural } from "@/components/ui/words";
import { sessionUserId } from "@/server/accounts/auth";
import { libraryOfItemFor } from "@/server/library/libraryItems";
import { codeAnalytics, codeSummaryFor } from "@/server/analytics/analytics";
import type { CodeAnalytics } from "@/server/analytics/analyticsRecords";
import { destinationsOf } from "@/server/analytics/scanEvents";
import { pageRange, rangePresets } from "@/server/analytics/analyticsPeriods";
import { MAX_HOURLY_DAYS } from "@/server/analytics/calendarDays";
import { timeZoneOf, zoneNames } from "@/server/analytics/timeZones";
import { DomainError } from "@/server/platform/errors";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ code: string }>;
  searchParams: Promise<{ from?: string; to?: string; tz?: string; granularity?: string; compare?: string }>;
};

/** An hour of the API's answer ("2026-03-08T01:00:00-08:00") as the page shows it. */
const hourLabel = (hour: string) => `${hour.slice(0, 10)} ${hour.slice(11, 16)} (${hour.slice(19)})`;

/** The chart's bars of a report: its hours or its days. */
const pointsOf = (report: CodeAnalytics) =>
  report.hourly
    ? report.hourly.map((h) => ({ label: hourLabel(h.hour), scans: h.scans, unique_scans: h.unique_scans }))
    : (report.daily ?? []).map((d) => ({ label: d.date, scans: d.scans, unique_scans: d.unique_scans }));

/** The zone asked if it is one (a refused range's presets keep it), else UTC's. */
function knownZoneOr(tz: string): string {
  try {
    return timeZoneOf(tz);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return "UTC";
  }
}

/** `key`: the row's value when its name is not unique (a country's code). */
function Breakdown({ title, rows }: { title: string; rows: { key?: string; name: string; scans: number }[] }) {
  const top = Math.max(1, ...rows.map((r) => r.scans));
  return (
    <section className="card">
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p className="muted">No scans in this range.</p>
      ) : (
        <table className="table breakdown">
          <tbody>
            {rows.map((r) => (
              <tr key={r.key ?? r.name}>
                <td className="label">{r.name}</td>
                <td className="bar-cell">
                  <span className="bar" style={{ width: `${(r.scans / top) * 100}%` }} />
                </td>
                <td className="num nowrap">{plural(r.scans, "scan")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** One dynamic code's analytics: the same function, and so the same numbers, as the API's. */
export default async function AnalyticsPage({ params, searchParams }: Props) {
  const { code } = await params;
  const { compare, ...range } = await searchParams;
  const tz = range.tz ?? "UTC";
  const comparing = compare === "1";
  const userId = await sessionUserId();
  if (!userId) redirect(`/login?callbackUrl=/analytics/${encodeURIComponent(code)}`);
  const library = await libraryOfItemFor(userId, "dynamic", code);
  if (!library) notFound();
  const summary = await codeSummaryFor(library, code);
  let report: CodeAnalytics | null = null;
  let previous: CodeAnalytics | null = null;
  let destinations: { destination: string; scans: number }[] = [];
  let problem: string | null = null;
  let cut = false;
  try {
    const shown = pageRange(range);
    cut = shown.cut;
    [report, destinations, previous] = await Promise.all([
      codeAnalytics(library, code, shown.query),
      destinationsOf(library, code, shown.query),
      comparing ? codeAnalytics(library, code, shown.previous) : null,
    ]);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    problem = error.message;
  }
  return (
    <>
      <section className="card">
        <h1>
          Analytics of {summary.name}{" "}
          <span className="muted mono code-beside" data-testid="analytics-code">
            {code}
          </span>
        </h1>
        {summary.deleted && (
          <p className="notice warning" data-testid="code-deleted">
            This code was deleted{summary.deletedAt ? ` on ${summary.deletedAt.toISOString().slice(0, 10)}` : ""}: its
            short link no longer works. Its scan history is kept and shown here.
          </p>
        )}
        {/* Offered on a refused range too: a preset is the way back to one that is shown. */}
        <RangePresets
          path={`/analytics/${code}`}
          presets={rangePresets(report?.tz ?? knownZoneOr(tz))}
          from={report?.from ?? range.from ?? ""}
          to={report?.to ?? range.to ?? ""}
          tz={report?.tz ?? knownZoneOr(tz)}
          hourly={report ? report.hourly !== undefined : range.granularity === "hour"}
          compare={comparing}
        />
        <form className="inline-form" method="get">
          <AnalyticsRangeFields
            key={`${report?.from}|${report?.to}|${report?.hourly ? "hour" : range.granularity}`}
            from={report?.from ?? range.from ?? ""}
            to={report?.to ?? range.to ?? ""}
            hourly={report ? report.hourly !== undefined : range.granularity === "hour"}
          />
          <TimeZoneField value={report?.tz ?? tz} zones={zoneNames()} fromBrowser={range.tz === undefined} />
          <div className="check">
            <input id="compare" name="compare" type="checkbox" value="1" defaultChecked={comparing} />
            <label htmlFor="compare">Compare with the previous period</label>
          </div>
          <button type="submit">Show</button>
          {report && (
            <a
              className="button secondary"
              href={`/analytics/${code}/scans.csv?${new URLSearchParams({ from: report.from, to: report.to, tz: report.tz })}`}
              download
            >
              Download scans (CSV)
            </a>
          )}
        </form>
        {problem && <p className="error">{problem}</p>}
        {cut && report && (
          <p className="notice warning" data-testid="hourly-cut">
            By hour shows at most {MAX_HOURLY_DAYS} days: these are the last {MAX_HOURLY_DAYS} days of the range asked,{" "}
            {report.from} to {report.to}.
          </p>
        )}
        {report && (
          <dl className="facts">
            <dt>Scans</dt>
            <dd data-testid="total-scans">{report.total_scans}</dd>
            <dt>Unique scans</dt>
            <dd data-testid="unique-scans">{report.unique_scans}</dd>
            <dt>Range</dt>
            <dd data-testid="range-summary">
              {plural(report.total_scans, "scan")} ({report.unique_scans} unique) from {report.from} to {report.to}
            </dd>
            <dt>Time zone</dt>
            <dd data-testid="time-zone">{report.tz}</dd>
          </dl>
        )}
        {report && previous && <PeriodComparison current={report} previous={previous} />}
      </section>
      {!summary.deleted && <LivePanel code={code} tz={report?.tz ?? "UTC"} />}
      {report && (
        <>
          <section className="card">
            <h2>
              Every {report.hourly ? "hour" : "day"} <span className="muted">({report.tz})</span>
            </h2>
            <DailyChart
              per={report.hourly ? "hour" : "day"}
              points={pointsOf(report)}
              previous={previous ? pointsOf(previous) : undefined}
            />
          </section>
          <Breakdown
            title="Countries"
            rows={report.countries.map((r) => ({ key: r.country, name: countryName(r.country), scans: r.scans }))}
          />
          <Breakdown title="Devices" rows={report.devices.map((r) => ({ name: r.device, scans: r.scans }))} />
          <Breakdown
            title="Operating systems"
            rows={report.operating_systems.map((r) => ({ name: r.os, scans: r.scans }))}
          />
          <Breakdown title="Browsers" rows={report.browsers.map((r) => ({ name: r.browser, scans: r.scans }))} />
          <Breakdown title="Destinations" rows={destinations.map((r) => ({ name: r.destination, scans: r.scans }))} />
        </>
      )}
    </>
  );
}
