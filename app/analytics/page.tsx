import Link from "next/link";
import { redirect } from "next/navigation";
import { ScansTable } from "@/components/ScansTable";
import { plural } from "@/components/words";
import { sessionUserId } from "@/server/auth";
import { analyticsSummary, type AnalyticsSummary } from "@/server/domain/analytics";
import type { Library } from "@/server/domain/library";
import { membershipOf } from "@/server/domain/teams";

export const dynamic = "force-dynamic";

/** `libraryHref`: where this library's codes are made (the empty state points there). */
function Summary({ title, summary, libraryHref }: { title: string; summary: AnalyticsSummary; libraryHref: string }) {
  return (
    <section className="card">
      <h2>{title}</h2>
      <p className="muted">
        {plural(summary.total_scans, "scan")}, {summary.unique_scans} unique, from {summary.from} to {summary.to}
        {summary.codes.length > 0 && <>, across {plural(summary.codes.length, "code")}</>}.
      </p>
      {summary.codes.length === 0 ? (
        <p className="empty">
          No dynamic codes yet: create one in the <Link href={libraryHref}>library</Link>, print it, and its scans show up here.
        </p>
      ) : (
        <ScansTable
          heading="Code"
          rows={summary.codes.map((c) => ({
            key: c.code,
            label: (
              <>
                <Link href={`/analytics/${c.code}`}>{c.name}</Link> <span className="muted mono nowrap">{c.code}</span>
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

/** The last 30 days of every dynamic code the account can read, with a link to each code's page. */
export default async function AnalyticsIndexPage() {
  const userId = await sessionUserId();
  if (!userId) redirect("/login?callbackUrl=/analytics");
  const membership = await membershipOf(userId);
  const personal: Library = { kind: "personal", userId };
  return (
    <>
      <section className="card">
        <h1>Analytics</h1>
        <p className="muted">Scans of your dynamic codes over the last 30 days, most scanned first. Open a code for its daily chart, countries, devices and CSV.</p>
      </section>
      <Summary title="Your library" summary={await analyticsSummary(personal, {})} libraryHref="/library" />
      {membership && <Summary title={`Team library: ${membership.team.name}`} summary={await analyticsSummary({ kind: "team", teamId: membership.teamId }, {})} libraryHref="/business" />}
    </>
  );
}
