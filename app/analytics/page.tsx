import Link from "next/link";
import { redirect } from "next/navigation";
import { sessionUserId } from "@/server/auth";
import { analyticsSummary, type AnalyticsSummary } from "@/server/domain/analytics";
import type { Library } from "@/server/domain/library";
import { membershipOf } from "@/server/domain/teams";

export const dynamic = "force-dynamic";

function Summary({ title, summary }: { title: string; summary: AnalyticsSummary }) {
  return (
    <section className="card">
      <h2>{title}</h2>
      <p className="muted">
        {summary.total_scans} scans, {summary.unique_scans} unique, from {summary.from} to {summary.to}.
      </p>
      {summary.codes.length === 0 ? (
        <p className="empty">
          No dynamic codes yet: create one in the <Link href="/library">library</Link>, print it, and its scans show up here.
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th>Code</th>
                <th className="num">Scans</th>
                <th className="num">Unique</th>
              </tr>
            </thead>
            <tbody>
              {summary.codes.map((c) => (
                <tr key={c.code}>
                  <td>
                    <Link href={`/analytics/${c.code}`}>{c.name}</Link> <span className="muted mono">{c.code}</span>
                  </td>
                  <td className="num">{c.total_scans}</td>
                  <td className="num">{c.unique_scans}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
      <Summary title="Your library" summary={await analyticsSummary(personal, {})} />
      {membership && <Summary title={`Team library: ${membership.team.name}`} summary={await analyticsSummary({ kind: "team", teamId: membership.teamId }, {})} />}
    </>
  );
}
