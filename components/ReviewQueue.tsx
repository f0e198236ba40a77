"use client";
// The review queue on /business (its "Review" section).
import { useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC, type RouterOutputs } from "@/trpc/react";
import type { Section } from "./business/teamMutations";
import { Email } from "./Email";
import { FormError } from "./FormError";
import { when } from "./KeyPanel";
import { FIRST_QUEUE_PAGE, reviewQueueInput, type QueueQuery } from "./libraryPageInput";
import { useRowAction } from "./useAction";
import { plural } from "./words";

type Draft = RouterOutputs["library"]["page"]["items"][number];
const draftKey = (draft: Pick<Draft, "kind" | "id">) => `${draft.kind}-${draft.id}`;

/**
 * The team library's drafts, a page (20) at a time, filtered by kind and search. Admins
 * approve or reject one, or every selected draft of the page at once (all or none).
 */
export function ReviewQueue({ overview, mutations }: Section) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isAdmin = overview.role === "admin";
  const [query, setQuery] = useState<QueueQuery>(FIRST_QUEUE_PAGE);
  const [search, setSearch] = useState("");
  const [kind, setKind] = useState<QueueQuery["kind"]>("");
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const { data } = useSuspenseQuery(trpc.library.page.queryOptions(reviewQueueInput(query)));
  const action = useRowAction();
  const chosen = data.items.filter((d) => selected.has(draftKey(d)));
  const everyChosen = data.items.length > 0 && chosen.length === data.items.length;
  // Another page or filter: fetched before it is shown, so a failure leaves the queue as it was.
  const show = (next: QueueQuery) =>
    action.run("filter", async () => {
      await queryClient.fetchQuery(trpc.library.page.queryOptions(reviewQueueInput(next)));
      setQuery(next);
      setSelected(new Set());
    });
  const review = (decision: "approve" | "reject") =>
    action.run("bulk", async () => {
      await mutations.review.mutateAsync({ decision, items: chosen.map(({ kind, id }) => ({ kind, id })) });
      setSelected(new Set());
    });
  const toggle = (draft: Draft) => {
    action.clear();
    const next = new Set(selected);
    if (!next.delete(draftKey(draft))) next.add(draftKey(draft));
    setSelected(next);
  };
  return (
    <section className="card" aria-labelledby="review-title">
      <h2 id="review-title">Review queue</h2>
      <form
        className="inline-form"
        role="search"
        aria-label="Filter the review queue"
        onChange={action.clear}
        onSubmit={(e) => {
          e.preventDefault();
          void show({ search, kind, page: 1 });
        }}
      >
        <div>
          <label htmlFor="queue-kind">Kind of draft</label>
          <select id="queue-kind" value={kind} onChange={(e) => setKind(e.target.value as QueueQuery["kind"])}>
            <option value="">Static and dynamic</option>
            <option value="static">Static</option>
            <option value="dynamic">Dynamic</option>
          </select>
        </div>
        <div>
          <label htmlFor="queue-search">Search drafts</label>
          <input id="queue-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Name, URL or code" />
        </div>
        <button type="submit" className="secondary" disabled={action.busy}>Filter</button>
        <FormError error={action.errorAt("filter")} testId="queue-filter-error" className="full" />
      </form>
      {data.items.length === 0 ? (
        <p className="muted" data-testid="no-drafts">
          {query.search || query.kind ? "No draft matches the filter." : data.total > 0 ? "No drafts on this page." : "Nothing waits for review."}
        </p>
      ) : (
        <>
          {isAdmin && (
            <div className="bulk" role="group" aria-label="Selected drafts">
              <label className="check">
                <input
                  type="checkbox"
                  checked={everyChosen}
                  onChange={() => {
                    action.clear();
                    setSelected(new Set(everyChosen ? [] : data.items.map(draftKey)));
                  }}
                />{" "}
                Select all on this page
              </label>
              <span className="actions tight">
                <button type="button" disabled={action.busy || chosen.length === 0} onClick={() => void review("approve")}>
                  Approve selected ({chosen.length})
                </button>
                <button
                  type="button"
                  className="danger"
                  disabled={action.busy || chosen.length === 0}
                  onClick={() => {
                    if (window.confirm(`Reject ${plural(chosen.length, "draft")}? They are deleted and their creators have to submit them again.`)) void review("reject");
                  }}
                >
                  Reject selected ({chosen.length})
                </button>
              </span>
              <FormError error={action.errorAt("bulk")} testId="bulk-error" className="full" />
            </div>
          )}
          <ul className="list" data-testid="review-queue">
            {data.items.map((draft) => {
              const key = draftKey(draft);
              const single = (decision: "approve" | "reject") =>
                action.run(key, () => (decision === "approve" ? mutations.approve : mutations.reject).mutateAsync({ kind: draft.kind, id: draft.id }));
              return (
                <li key={key} data-testid={`draft-${draft.id}`}>
                  <div>
                    {isAdmin && (
                      <input type="checkbox" className="select" aria-label={`Select ${draft.name}`} checked={selected.has(key)} onChange={() => toggle(draft)} />
                    )}
                    <strong>{draft.name}</strong> <span className="badge">{draft.kind}</span>
                    <div className="muted">
                      {draft.url} · by <Email address={draft.createdBy} /> · {when(draft.createdAt)}
                    </div>
                  </div>
                  {isAdmin ? (
                    <span className="actions tight review-actions">
                      <button type="button" disabled={action.busy} onClick={() => void single("approve")}>Approve</button>
                      <button
                        type="button"
                        className="danger"
                        disabled={action.busy}
                        onClick={() => {
                          if (window.confirm(`Reject “${draft.name}”? The draft is deleted and its creator has to submit it again.`)) void single("reject");
                        }}
                      >
                        Reject
                      </button>
                    </span>
                  ) : (
                    <span className="muted">waiting for an admin</span>
                  )}
                  <FormError error={action.errorAt(key)} testId={`draft-error-${draft.id}`} className="full" />
                </li>
              );
            })}
          </ul>
        </>
      )}
      {(data.pages > 1 || data.page > 1) && (
        <nav className="pager" aria-label="Pages of the review queue">
          <button type="button" className="secondary" disabled={action.busy || data.page <= 1} onClick={() => void show({ ...query, page: Math.min(data.page - 1, data.pages) })}>
            Previous
          </button>
          <span data-testid="queue-page-of">
            Page {data.page} of {data.pages} · {plural(data.total, "draft")}
          </span>
          <button type="button" className="secondary" disabled={action.busy || data.page >= data.pages} onClick={() => void show({ ...query, page: data.page + 1 })}>
            Next
          </button>
        </nav>
      )}
    </section>
  );
}
