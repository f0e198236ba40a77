"use client";
// The review queue on /business: the team library's drafts, a page (20) at a time, filtered by
// kind and search, each with its QR code and short link. Admins approve one or every selected
// draft of the page (all or none), or reject them with a reason the writer sees here and is
// mailed (server/teams/draftRejections.ts).
import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC, type RouterOutputs } from "@/trpc/react";
import { CopyButton } from "../ui/CopyButton";
import { Email } from "../ui/Email";
import { FormError } from "../ui/FormError";
import { when } from "../keys/KeyPanel";
import { imageUrl } from "../library/Library";
import { useLibraryChanged } from "../library/useLibraryMutations";
import { FIRST_QUEUE_PAGE, reviewQueueInput, type QueueQuery } from "../library/libraryPageInput";
import { Pager } from "../ui/Pager";
import { useRowAction } from "../ui/useAction";
import { plural } from "../ui/words";

type Draft = RouterOutputs["library"]["page"]["items"][number];
const draftKey = (draft: Pick<Draft, "kind" | "id">) => `${draft.kind}-${draft.id}`;

/** A review changes the queue, the team library and the writer's list of rejections. */
function useReviewMutations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const libraryChanged = useLibraryChanged("team");
  const changed = {
    onSuccess: () =>
      Promise.all([libraryChanged(), queryClient.invalidateQueries(trpc.team.draftRejections.queryFilter())]),
  };
  return {
    approve: useMutation(trpc.team.approve.mutationOptions(changed)),
    reject: useMutation(trpc.team.reject.mutationOptions(changed)),
    review: useMutation(trpc.team.review.mutationOptions(changed)),
  };
}

export function ReviewQueue({ isAdmin }: { isAdmin: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mutations = useReviewMutations();
  const [query, setQuery] = useState<QueueQuery>(FIRST_QUEUE_PAGE);
  const [search, setSearch] = useState("");
  const [kind, setKind] = useState<QueueQuery["kind"]>("");
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // Which Reject asks for its reason: a draft's key, or "bulk" for the selection.
  const [rejecting, setRejecting] = useState<string | null>(null);
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
  const review = (decision: "approve" | "reject", reason?: string) =>
    action.run("bulk", async () => {
      await mutations.review.mutateAsync({ decision, items: chosen.map(({ kind, id }) => ({ kind, id })), reason });
      setSelected(new Set());
      setRejecting(null);
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
        method="post"
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
          <input
            id="queue-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Name, URL or code"
          />
        </div>
        <button type="submit" className="secondary" disabled={action.busy}>
          Filter
        </button>
        <FormError error={action.errorAt("filter")} testId="queue-filter-error" className="full" />
      </form>
      {data.items.length === 0 ? (
        <p className="muted" data-testid="no-drafts">
          {query.search || query.kind
            ? "No draft matches the filter."
            : data.total > 0
              ? "No drafts on this page."
              : "Nothing waits for review."}
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
                <button
                  type="button"
                  disabled={action.busy || chosen.length === 0}
                  onClick={() => void review("approve")}
                >
                  Approve selected ({chosen.length})
                </button>
                <button
                  type="button"
                  className="danger"
                  disabled={action.busy || chosen.length === 0}
                  onClick={() => setRejecting("bulk")}
                >
                  Reject selected ({chosen.length})
                </button>
              </span>
              {rejecting === "bulk" && chosen.length > 0 && (
                <RejectForm
                  id="bulk"
                  what={plural(chosen.length, "draft")}
                  busy={action.busy}
                  onReject={(reason) => void review("reject", reason)}
                  onCancel={() => setRejecting(null)}
                />
              )}
              <FormError error={action.errorAt("bulk")} testId="bulk-error" className="full" />
            </div>
          )}
          <ul className="list" data-testid="review-queue">
            {data.items.map((draft) => {
              const key = draftKey(draft);
              const single = (work: () => Promise<unknown>) => void action.run(key, work);
              return (
                <li key={key} data-testid={`draft-${draft.id}`}>
                  <div className="draft-main">
                    {isAdmin && (
                      <input
                        type="checkbox"
                        className="select"
                        aria-label={`Select ${draft.name}`}
                        checked={selected.has(key)}
                        onChange={() => toggle(draft)}
                      />
                    )}
                    {/* eslint-disable-next-line @next/next/no-img-element -- a generated image, not a static asset */}
                    <img
                      className="thumb"
                      src={imageUrl(draft, `size=96&v=${encodeURIComponent(JSON.stringify(draft.style))}`)}
                      width={64}
                      height={64}
                      alt={`QR code of ${draft.name}`}
                    />
                    <div className="item-main">
                      <div className="item-title">
                        <strong>{draft.name}</strong> <span className="badge">{draft.kind}</span>
                      </div>
                      {draft.shortUrl && (
                        <div className="mono short-url" data-testid={`draft-short-url-${draft.id}`}>
                          {draft.shortUrl} <CopyButton text={draft.shortUrl} />{" "}
                          <span className="muted small-text">answers 404 until approved</span>
                        </div>
                      )}
                      <div className="muted wrap">
                        {draft.kind === "dynamic" ? "→ " : ""}
                        {draft.url} · by <Email address={draft.createdBy} /> · {when(draft.createdAt)}
                      </div>
                    </div>
                  </div>
                  {isAdmin ? (
                    <span className="actions tight review-actions">
                      <button
                        type="button"
                        disabled={action.busy}
                        onClick={() => single(() => mutations.approve.mutateAsync({ kind: draft.kind, id: draft.id }))}
                      >
                        Approve
                      </button>
                      <button type="button" className="danger" disabled={action.busy} onClick={() => setRejecting(key)}>
                        Reject
                      </button>
                    </span>
                  ) : (
                    <span className="muted">waiting for an admin</span>
                  )}
                  {rejecting === key && (
                    <RejectForm
                      id={key}
                      what={`“${draft.name}”`}
                      busy={action.busy}
                      onReject={(reason) =>
                        single(() =>
                          mutations.reject
                            .mutateAsync({ kind: draft.kind, id: draft.id, reason })
                            .then(() => setRejecting(null)),
                        )
                      }
                      onCancel={() => setRejecting(null)}
                    />
                  )}
                  <FormError error={action.errorAt(key)} testId={`draft-error-${draft.id}`} className="full" />
                </li>
              );
            })}
          </ul>
        </>
      )}
      {(data.pages > 1 || data.page > 1) && (
        <Pager
          label="Pages of the review queue"
          testId="queue-page-of"
          page={data.page}
          pages={data.pages}
          count={plural(data.total, "draft")}
          busy={action.busy}
          onPage={(page) => void show({ ...query, page })}
        />
      )}
      <RejectedDrafts />
    </section>
  );
}

/** Rejecting asks why: the reason is the writer's, on /business and in a mail. */
function RejectForm({
  id,
  what,
  busy,
  onReject,
  onCancel,
}: {
  id: string;
  what: string;
  busy: boolean;
  onReject: (reason: string) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState("");
  return (
    <form
      method="post"
      className="inline-form full"
      aria-label={`Reject ${what}`}
      onSubmit={(e) => {
        e.preventDefault();
        onReject(reason);
      }}
    >
      <div>
        <label htmlFor={`reject-reason-${id}`}>Reason for rejecting {what}</label>
        <input
          id={`reject-reason-${id}`}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          required
          maxLength={500}
          placeholder="The writer sees it and is mailed it"
          autoFocus
        />
      </div>
      <button type="submit" className="danger" disabled={busy}>
        Reject and delete
      </button>
      <button type="button" className="secondary" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

/** The member's own drafts an admin rejected: what, by whom, when and why. */
function RejectedDrafts() {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.team.draftRejections.queryOptions());
  if (!data || data.length === 0) return null;
  return (
    <>
      <h3>Your rejected drafts</h3>
      <ul className="list" data-testid="rejected-drafts">
        {data.map((r) => (
          <li key={`${r.kind}-${r.target}`} data-testid={`rejected-${r.target}`}>
            <div>
              <strong>{r.name}</strong> <span className="badge">{r.kind}</span>{" "}
              <span className="muted wrap">{r.url}</span>
              <div className="error small-text">
                Rejected by <Email address={r.by} /> · {when(r.at)}: {r.reason}
              </div>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
