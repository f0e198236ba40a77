"use client";
// Review of changes to published team codes (server/teams/pendingChanges.ts) on /business: the
// queue of writers' pending changes with before and after, Approve change / Reject change for
// admins (a reason the writer is mailed), and on each code of the team library what waits for
// review or why the last change was rejected.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC, type RouterOutputs } from "@/trpc/react";
import type { Hosted } from "@/server/hosted/content";
import { hostedSummary } from "@/server/hosted/summary";
import { Email } from "../ui/Email";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";

type PendingChange = RouterOutputs["team"]["pendingChanges"][number];
type LibraryItem = RouterOutputs["library"]["page"]["items"][number];

/** A field's value as a person reads it: text as written, rules as JSON, nothing as "none". */
const shown = (value: unknown) =>
  value === null || value === undefined ? "none" : typeof value === "string" ? value : JSON.stringify(value);
/** The API's field names in the words of the pages. */
const FIELD_WORDS: Record<string, string> = {
  destination_url: "Destination URL",
  targets: "Rules by device or country",
  utm: "UTM parameters",
  expires_at: "Expires at",
  expired_url: "After expiry",
  password_set: "Password",
  password_protected: "Password",
  type: "Type",
  content: "Content",
};
const fieldWord = (name: string) => FIELD_WORDS[name] ?? name;
/** `type` names what a hosted `content` is: a contact card or a page reads as one line, not as JSON. */
function valueOf(name: string, value: unknown, type?: string): string {
  if (name === "content" && (type === "vcard" || type === "page") && value !== null && typeof value === "object")
    return hostedSummary({ type, content: value } as Hosted);
  if (name === "password_set") return value ? "set a password" : "remove the password";
  if (name === "password_protected") return value ? "protected" : "none";
  if (name === "expires_at" && typeof value === "number") return new Date(value * 1000).toISOString();
  return shown(value);
}

/** On a code of the team library: the change waiting for review, or the last rejection's reason. */
export function ChangeNotes({ item }: { item: LibraryItem }) {
  return (
    <>
      {item.pendingChange && (
        <p className="notice warning small-text" data-testid={`pending-change-${item.id}`}>
          Change waiting for an admin&apos;s review (by {item.pendingChange.by}):{" "}
          {Object.entries(item.pendingChange.fields)
            .map(
              ([name, value]) =>
                `${fieldWord(name)} → ${valueOf(name, value, item.pendingChange!.fields.type ?? item.type)}`,
            )
            .join("; ")}
          . The short link keeps its approved destination until then.
        </p>
      )}
      {item.rejection && (
        <p className="error small-text" data-testid={`change-rejected-${item.id}`}>
          A change to {Object.keys(item.rejection.fields).map(fieldWord).join(", ")} was rejected by {item.rejection.by}
          : {item.rejection.reason}
        </p>
      )}
    </>
  );
}

/** The team's pending changes beside the drafts: before and after; admins approve or reject each. */
export function PendingChanges({ isAdmin }: { isAdmin: boolean }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.team.pendingChanges.queryOptions());
  return (
    <section className="card" aria-labelledby="changes-title">
      <h2 id="changes-title">Changes to published codes</h2>
      <p className="muted">
        A writer&apos;s change to where a published code leads waits here; the printed code keeps its approved
        destination until an admin approves the change.
      </p>
      {data.length === 0 ? (
        <p className="muted" data-testid="no-pending-changes">
          No change waits for review.
        </p>
      ) : (
        <ul className="list" data-testid="pending-changes">
          {data.map((change) => (
            <ChangeRow key={change.code} change={change} isAdmin={isAdmin} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ChangeRow({ change, isAdmin }: { change: PendingChange; isAdmin: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const changed = async () => {
    await Promise.all([
      queryClient.invalidateQueries(trpc.team.pendingChanges.queryFilter()),
      queryClient.invalidateQueries(trpc.library.page.queryFilter({ scope: "team" })),
    ]);
  };
  const decide = useMutation(trpc.team.reviewChange.mutationOptions({ onSuccess: changed }));
  const { error, busy, run, clear } = useAction();
  const [reason, setReason] = useState("");
  const side = (values: Record<string, unknown>, word: string) => {
    const entry = Object.entries(values).find(([name]) => fieldWord(name) === word);
    return entry ? valueOf(entry[0], entry[1], typeof values.type === "string" ? values.type : change.type) : "";
  };
  const asked = [...new Set([...Object.keys(change.before), ...Object.keys(change.after)].map(fieldWord))].map(
    (word) => ({ word, before: side(change.before, word), after: side(change.after, word) }),
  );
  // A hosted page's change carries its type and (no) destination along: only what differs is shown.
  const differ = asked.filter((row) => row.before !== row.after);
  const rows = differ.length > 0 ? differ : asked;
  return (
    <li data-testid={`change-${change.code}`}>
      <div className="full">
        <strong>{change.name}</strong> <span className="mono">{change.shortUrl}</span>
        <div className="muted">
          by <Email address={change.by} /> · {new Date(change.createdAt).toLocaleString()}
        </div>
        <div className="table-scroll">
          <table className="table stack">
            <thead>
              <tr>
                <th>Field</th>
                <th>Before (live)</th>
                <th>After (asked)</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ word, before, after }) => (
                <tr key={word}>
                  <td>{word}</td>
                  <td className="wrap" data-label="Before">
                    {before}
                  </td>
                  <td className="wrap" data-label="After">
                    {after}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      {isAdmin ? (
        <form
          method="post"
          className="inline-form full"
          aria-label={`Review the change to ${change.name}`}
          onChange={clear}
          onSubmit={(e) => {
            e.preventDefault();
            void run(() => decide.mutateAsync({ code: change.code, decision: "reject", reason }));
          }}
        >
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(() => decide.mutateAsync({ code: change.code, decision: "approve" }))}
          >
            Approve change
          </button>
          <div>
            <label htmlFor={`reason-${change.code}`}>Reason for rejecting</label>
            <input
              id={`reason-${change.code}`}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={500}
              placeholder="The writer is mailed it"
            />
          </div>
          <button type="submit" className="danger" disabled={busy}>
            Reject change
          </button>
          <FormError error={error} testId={`change-error-${change.code}`} className="full" />
        </form>
      ) : (
        <span className="muted">waiting for an admin</span>
      )}
    </li>
  );
}
