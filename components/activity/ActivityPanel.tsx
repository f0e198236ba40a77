"use client";
// The activity log: the account's own on /profile, the team's for its admins on /business;
// newest first, 20 at a time ("Older entries"), and the whole log as CSV.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { messageOf } from "../ui/useAction";

type Scope = "account" | "team";

export function ActivityPanel({ scope }: { scope: Scope }) {
  const trpc = useTRPC();
  const log = useInfiniteQuery(
    trpc.activity.page.infiniteQueryOptions({ scope }, { getNextPageParam: (page) => page.next_cursor ?? undefined }),
  );
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <section className="card" data-testid={`activity-${scope}`}>
      <h2>Activity</h2>
      <p className="muted">
        {scope === "team"
          ? "Who did what in the team: keys, members, reviews, deleted codes and webhooks."
          : "Your log-ins (browser, system and country, never the address), failed log-ins, security changes and keys."}{" "}
        Kept for a year.{" "}
        <a href={`/activity/${scope}.csv`} download>
          Download CSV
        </a>
      </p>
      {log.error && <p className="error">{messageOf(log.error)}</p>}
      {log.isPending ? (
        <p className="muted">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="muted">Nothing yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="table stack">
            <thead>
              <tr>
                <th>Time</th>
                <th>Who</th>
                <th>Action</th>
                <th>Target</th>
                <th>Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} data-testid="activity-entry">
                  <td data-label="Time" className="nowrap">
                    {new Date(e.time).toLocaleString()}
                  </td>
                  <td data-label="Who">{e.actor}</td>
                  <td data-label="Action" className="nowrap">
                    <code>{e.action}</code>
                  </td>
                  <td data-label="Target">{e.target ?? "—"}</td>
                  <td data-label="Details">{e.details || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.hasNextPage && (
        <p className="actions">
          <button
            type="button"
            className="secondary"
            onClick={() => void log.fetchNextPage()}
            disabled={log.isFetchingNextPage}
          >
            Older entries
          </button>
        </p>
      )}
    </section>
  );
}
