import { notFound, redirect } from "next/navigation";
import { DailyChart } from "@/components/DailyChart";
import { LivePanel } from "@/components/LivePanel";
import { TimeZoneField } from "@/components/TimeZoneField";
import { countryName, plural } from "@/components/words";
import { sessionUserId } from "@/server/auth";
import { libraryOfItemFor } from "@/server/domain/libraryItems";
import { codeAnalytics, codeSummaryFor, destinationsOf, type CodeAnalytics } from "@/server/domain/analytics";
import { zoneNames } from "@/server/domain/timeZones";
import { DomainError } from "@/server/errors";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ code: string }>; searchParams: Promise<{ from?: string; to?: string; tz?: string; granularity?: string }> };

/** An hour of the API's answer ("2026-03-08T01:00:00-08:00") as the page shows it. */
const hourLabel = (hour: string) => `${hour.slice(0, 10)} ${hour.slice(11, 16)} (${hour.slice(19)})`;

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
  const range = await searchParams;
  const tz = range.tz ?? "UTC";
  const userId = await sessionUserId();
  if (!userId) redirect(`/login?callbackUrl=/analytics/${encodeURIComponent(code)}`);
  const library = await libraryOfItemFor(userId, "dynamic", code);
  if (!library) notFound();
  const summary = await codeSummaryFor(library, code);
  let report: CodeAnalytics | null = null;
  let destinations: { destination: string; scans: number }[] = [];
  let problem: string | null = null;
  try {
    [report, destinations] = await Promise.all([codeAnalytics(library, code, range), destinationsOf(library, code, range)]);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    problem = error.message;
  }
  return (
    <>
      <section className="card">
        <h1>
          Analytics of {summary.name} <span className="muted mono code-beside" data-testid="analytics-code">{code}</span>
        </h1>
        {summary.deleted && (
          <p className="notice warning" data-testid="code-deleted">
            This code was deleted{summary.deletedAt ? ` on ${summary.deletedAt.toISOString().slice(0, 10)}` : ""}: its short link no longer works. Its scan history is
            kept and shown here.
          </p>
        )}
        <form className="inline-form" method="get">
          <div>
            <label htmlFor="from">From</label>
            <input id="from" name="from" type="date" defaultValue={report?.from ?? range.from} />
          </div>
          <div>
            <label htmlFor="to">To</label>
            <input id="to" name="to" type="date" defaultValue={report?.to ?? range.to} />
          </div>
          <TimeZoneField value={report?.tz ?? tz} zones={zoneNames()} fromBrowser={range.tz === undefined} />
          <div>
            <label htmlFor="granularity">View</label>
            <select id="granularity" name="granularity" defaultValue={report?.hourly ? "hour" : "day"}>
              <option value="day">By day</option>
              <option value="hour">By hour (7 days at most)</option>
            </select>
          </div>
          <button type="submit">Show</button>
          {report && (
            <a className="button secondary" href={`/analytics/${code}/scans.csv?${new URLSearchParams({ from: report.from, to: report.to, tz: report.tz })}`} download>
              Download scans (CSV)
            </a>
          )}
        </form>
        {problem && <p className="error">{problem}</p>}
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
      </section>
      {!summary.deleted && <LivePanel code={code} tz={report?.tz ?? "UTC"} />}
      {report && (
        <>
          <section className="card">
            <h2>
              Every {report.hourly ? "hour" : "day"} <span className="muted">({report.tz})</span>
            </h2>
            {report.hourly ? (
              <DailyChart per="hour" points={report.hourly.map((h) => ({ label: hourLabel(h.hour), scans: h.scans, unique_scans: h.unique_scans }))} />
            ) : (
              <DailyChart points={(report.daily ?? []).map((d) => ({ label: d.date, scans: d.scans, unique_scans: d.unique_scans }))} />
            )}
          </section>
          <Breakdown title="Countries" rows={report.countries.map((r) => ({ key: r.country, name: countryName(r.country), scans: r.scans }))} />
          <Breakdown title="Devices" rows={report.devices.map((r) => ({ name: r.device, scans: r.scans }))} />
          <Breakdown title="Operating systems" rows={report.operating_systems.map((r) => ({ name: r.os, scans: r.scans }))} />
          <Breakdown title="Browsers" rows={report.browsers.map((r) => ({ name: r.browser, scans: r.scans }))} />
          <Breakdown title="Destinations" rows={destinations.map((r) => ({ name: r.destination, scans: r.scans }))} />
        </>
      )}
    </>
  );
}
