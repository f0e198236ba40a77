import Link from "next/link";
import { redirect } from "next/navigation";
import { ScansTable } from "@/components/analytics/ScansTable";
import { TimeZoneField } from "@/components/analytics/TimeZoneField";
import { plural } from "@/components/ui/words";
import { sessionUserId } from "@/server/accounts/auth";
import { analyticsSummary } from "@/server/analytics/analytics";
import type { AnalyticsSummary } from "@/server/analytics/analyticsRecords";
import type { Library } from "@/server/library/library";
import { membershipOf } from "@/server/teams/teams";
import { timeZoneOf, zoneNames } from "@/server/analytics/timeZones";
import { DomainError } from "@/server/platform/errors";

export const dynamic = "force-dynamic";

/** `libraryHref`: where this library's codes are made (the empty state points there). */
function Summary({ title, summary, libraryHref }: { title: string; summary: AnalyticsSummary; libraryHref: string }) {
  return (
    <section className="card">
      <h2>{title}</h2>
      <p className="muted">
        {plural(summary.total_scans, "scan")}, {summary.unique_scans} unique, from {summary.from} to {summary.to} (
        {summary.tz}){summary.codes.length > 0 && <>, across {plural(summary.codes.length, "code")}</>}.
      </p>
      {summary.codes.length === 0 ? (
        <p className="empty">
          No dynamic codes yet: create one in the <Link href={libraryHref}>library</Link>, print it, and its scans show
          up here.
        </p>
      ) : (
        <ScansTable
          heading="Code"
          rows={summary.codes.map((c) => ({
            key: c.code,
            label: (
              <>
                <Link href={`/analytics/${c.code}?tz=${encodeURIComponent(summary.tz)}`}>{c.name}</Link>{" "}
                <span className="muted mono nowrap">{c.code}</span>
              </>
            ),
            scans: c.total_scans,
            unique: c.unique_scans,
          }))}
        />
      )}
    </section>
  );
}

/** The last 30 days (in the browser's time zone, or the one chosen) of every dynamic code the account can read, with a link to each code's page. */
export default async function AnalyticsIndexPage({ searchParams }: { searchParams: Promise<{ tz?: string }> }) {
  const userId = await sessionUserId();
  if (!userId) redirect("/login?callbackUrl=/analytics");
  const asked = (await searchParams).tz;
  let tz = "UTC";
  let problem: string | null = null;
  try {
    tz = timeZoneOf(asked);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    problem = error.message;
  }
  const membership = await membershipOf(userId);
  const personal: Library = { kind: "personal", userId };
  return (
    <>
      <section className="card">
        <h1>Analytics</h1>
        <p className="muted">
          Scans of your dynamic codes over the last 30 days, days in <span data-testid="time-zone">{tz}</span>, most
          scanned first. Open a code for its daily and hourly charts, countries, devices and CSV.
        </p>
        <form className="inline-form" method="get" aria-label="Days in a time zone">
          <TimeZoneField value={tz} zones={zoneNames()} fromBrowser={asked === undefined} />
          <button type="submit">Show</button>
        </form>
        {problem && <p className="error">{problem}</p>}
      </section>
      <Summary title="Your library" summary={await analyticsSummary(personal, { tz })} libraryHref="/library" />
      {membership && (
        <Summary
          title={`Team library: ${membership.team.name}`}
          summary={await analyticsSummary({ kind: "team", teamId: membership.teamId }, { tz })}
          libraryHref="/business"
        />
      )}
    </>
  );
}
