"use client";
// /business, section "Members": the team's members, their roles, and (admins) invitations.
import { useSuspenseQuery } from "@tanstack/react-query";
import { Fragment, Suspense, useState } from "react";
import type { Role } from "@/server/teams/teams";
import { useTRPC } from "@/trpc/react";
import { Email } from "../ui/Email";
import { FormError } from "../ui/FormError";
import { when } from "../keys/KeyPanel";
import { useAction, useRowAction } from "../ui/useAction";
import { ROLES, type Section, type TeamMutations } from "./teamMutations";

export function Members({ overview, mutations }: Section) {
  const isAdmin = overview.role === "admin";
  // A role change, a removal or a hand-over: its error at the member's row.
  const rows = useRowAction();
  return (
    <section className="card" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <div className="table-scroll">
        <table className="table stack">
          <thead>
            <tr>
              <th>Member</th>
              <th>Role</th>
              {isAdmin && <th />}
            </tr>
          </thead>
          <tbody>
            {overview.members.map((member) => {
              const error = rows.errorAt(member.userId);
              const change = (work: () => Promise<unknown>) => void rows.run(member.userId, work);
              // The server keeps the owner an admin and in the team: their row offers no change.
              const changeable = isAdmin && !member.isOwner;
              return (
                <Fragment key={member.userId}>
                  <tr data-testid={`member-${member.email}`}>
                    <td className="email-cell">
                      {member.name}{" "}
                      <span className="muted">
                        <Email address={member.email} />
                      </span>{" "}
                      {member.isOwner && <span className="badge">owner</span>}
                    </td>
                    <td className="nowrap" data-label="Role">
                      {changeable ? (
                        <select
                          aria-label={`Role of ${member.email}`}
                          value={member.role}
                          disabled={rows.busy}
                          onChange={(e) =>
                            change(() =>
                              mutations.setRole.mutateAsync({ userId: member.userId, role: e.target.value as Role }),
                            )
                          }
                        >
                          {ROLES.map((r) => (
                            <option key={r} value={r}>
                              {r}
                            </option>
                          ))}
                        </select>
                      ) : (
                        member.role
                      )}
                    </td>
                    {isAdmin && (
                      <td>
                        {changeable && (
                          <span className="actions tight member-actions">
                            {overview.isOwner && member.role === "admin" && (
                              <button
                                type="button"
                                className="secondary"
                                disabled={rows.busy}
                                onClick={() => {
                                  const keys = member.onBusiness
                                    ? "The team's keys then depend on their Business plan."
                                    : "They are not on the Business plan: the team's keys will be refused (403) until they upgrade.";
                                  if (
                                    window.confirm(`Make ${member.email} the team's owner? ${keys} You stay an admin.`)
                                  )
                                    change(() => mutations.makeOwner.mutateAsync({ userId: member.userId }));
                                }}
                              >
                                Make owner
                              </button>
                            )}
                            <button
                              type="button"
                              className="secondary"
                              disabled={rows.busy}
                              onClick={() => {
                                if (
                                  window.confirm(
                                    `Remove ${member.email} from the team? Their business key is revoked and their sessions end at once.`,
                                  )
                                )
                                  change(() => mutations.removeMember.mutateAsync({ userId: member.userId }));
                              }}
                            >
                              Remove
                            </button>
                          </span>
                        )}
                      </td>
                    )}
                  </tr>
                  {error && (
                    <tr className="row-error">
                      <td colSpan={isAdmin ? 3 : 2}>
                        <FormError error={error} testId={`member-error-${member.email}`} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      {isAdmin && (
        <Suspense fallback={<p className="muted">Loading the invitations…</p>}>
          <Invitations mutations={mutations} onChange={rows.clear} />
        </Suspense>
      )}
    </section>
  );
}

/**
 * Admins invite by email with a role (the invitee accepts from the mailed link), and see and
 * cancel the pending invitations (invitations.pending, prefetched by the page for admins).
 */
function Invitations({ mutations, onChange }: { mutations: TeamMutations; onChange: () => void }) {
  const trpc = useTRPC();
  const { data: pending } = useSuspenseQuery(trpc.invitations.pending.queryOptions());
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("writer");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const inviting = useAction();
  const rows = useRowAction();
  const clearAll = () => {
    onChange();
    rows.clear();
    inviting.clear();
    setSentTo(null);
  };
  return (
    <>
      <h3 id="invite-title">Invite a member</h3>
      <form
        method="post"
        className="inline-form"
        aria-labelledby="invite-title"
        onChange={clearAll}
        onSubmit={(e) => {
          e.preventDefault();
          clearAll();
          void inviting.run(async () => {
            await mutations.invite.mutateAsync({ email, role });
            setSentTo(email);
            setEmail("");
          });
        }}
      >
        <div>
          <label htmlFor="member-email">Email</label>
          <input id="member-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
        </div>
        <div>
          <label htmlFor="member-role">Role</label>
          <select id="member-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={inviting.busy}>
          Invite
        </button>
        <FormError error={inviting.error} testId="member-error" className="full" />
        {sentTo && (
          <p className="full muted" role="status" data-testid="invitation-sent">
            Invitation sent to <Email address={sentTo} />. The link works once, for 7 days.
          </p>
        )}
      </form>
      <h3>Pending invitations</h3>
      {pending.length === 0 ? (
        <p className="muted" data-testid="no-invitations">
          No pending invitations.
        </p>
      ) : (
        <ul className="list" data-testid="pending-invitations">
          {pending.map((invitation) => (
            <li key={invitation.id} data-testid={`invitation-${invitation.email}`}>
              <div>
                <Email address={invitation.email} /> <span className="badge">{invitation.role}</span>
                <div className="muted">
                  invited by <Email address={invitation.invitedBy} /> · expires {when(invitation.expiresAt)}
                </div>
              </div>
              <button
                type="button"
                className="secondary"
                disabled={rows.busy}
                onClick={() => {
                  if (window.confirm(`Cancel the invitation to ${invitation.email}? Its link stops working.`)) {
                    inviting.clear();
                    setSentTo(null);
                    void rows.run(invitation.id, () => mutations.cancelInvitation.mutateAsync({ id: invitation.id }));
                  }
                }}
              >
                Cancel
              </button>
              <FormError
                error={rows.errorAt(invitation.id)}
                testId={`invitation-error-${invitation.email}`}
                className="full"
              />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
