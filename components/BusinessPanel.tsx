"use client";
// /business: the team, its members, the business keys, the review queue and the team library.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { Fragment, Suspense, useState } from "react";
import type { Role } from "@/server/domain/teams";
import { useTRPC, type RouterOutputs } from "@/trpc/react";
import { Email } from "./Email";
import { FormError } from "./FormError";
import { KeyPanel, when } from "./KeyPanel";
import { Library, useLibraryChanged } from "./Library";
import { PendingChanges } from "./PendingChanges";
import { ReviewQueue } from "./ReviewQueue";
import { libraryPageInput } from "./libraryPageInput";
import { useAction } from "./useAction";
import { useRowAction } from "./useRowAction";
import { ActivityPanel } from "./ActivityPanel";
import { CsvImport } from "./CsvImport";
import { WebhooksPanel } from "./WebhooksPanel";

type TeamOverview = NonNullable<RouterOutputs["team"]["overview"]>;

const ROLES: Role[] = ["admin", "writer", "viewer"];

/** The page's body: the team (team.overview, prefetched by the page), or how to get one. */
export function BusinessPage({ account }: { account: { email: string; tier: string } }) {
  const trpc = useTRPC();
  const { data: overview } = useSuspenseQuery(trpc.team.overview.queryOptions());
  if (overview) return <BusinessPanel overview={overview} />;
  return (
    <section className="card">
      <h1>Business</h1>
      <p>A team shares one library. Writers and admins each hold their own business key; whatever they add waits as a draft until an admin approves it.</p>
      {account.tier === "business" ? (
        <CreateTeamForm />
      ) : (
        <p data-testid="no-team">
          You are not in a team. Creating one takes the Business plan (yours is <strong>{account.tier}</strong>); or ask a team&apos;s admin to invite{" "}
          <strong>{account.email}</strong>.
        </p>
      )}
    </section>
  );
}

function CreateTeamForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(
    trpc.team.create.mutationOptions({
      // The new team's (empty) library first, so the page shows the team and its library at once.
      onSuccess: async () => {
        await queryClient.prefetchQuery(trpc.library.page.queryOptions(libraryPageInput("team")));
        await queryClient.invalidateQueries(trpc.team.overview.queryFilter());
      },
    }),
  );
  const [name, setName] = useState("");
  const { error, busy, run } = useAction();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void run(() => create.mutateAsync({ name }));
      }}
    >
      {error && <p className="error">{error}</p>}
      <label htmlFor="team-name">Team name</label>
      <input id="team-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
      <p className="actions">
        <button type="submit" disabled={busy}>Create team</button>
      </p>
    </form>
  );
}

/** The team's changes, each reloading what it changed once it succeeded. */
function useTeamMutations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overviewChanged = () => queryClient.invalidateQueries(trpc.team.overview.queryFilter());
  // The team library and its review queue (the overview) together.
  const libraryChanged = useLibraryChanged("team");
  const overviewOnly = { onSuccess: overviewChanged };
  const invitationsChanged = { onSuccess: () => queryClient.invalidateQueries(trpc.invitations.pending.queryFilter()) };
  const withLibrary = { onSuccess: libraryChanged };
  return {
    generateKey: useMutation(trpc.team.generateKey.mutationOptions(overviewOnly)),
    revokeKey: useMutation(trpc.team.revokeKey.mutationOptions(overviewOnly)),
    invite: useMutation(trpc.invitations.send.mutationOptions(invitationsChanged)),
    cancelInvitation: useMutation(trpc.invitations.cancel.mutationOptions(invitationsChanged)),
    makeOwner: useMutation(trpc.team.makeOwner.mutationOptions(overviewOnly)),
    // A role decides what the library lets its holder do; a member removed leaves it.
    setRole: useMutation(trpc.team.setRole.mutationOptions(withLibrary)),
    removeMember: useMutation(trpc.team.removeMember.mutationOptions(withLibrary)),
  };
}
type TeamMutations = ReturnType<typeof useTeamMutations>;

function BusinessPanel({ overview }: { overview: TeamOverview }) {
  const mutations = useTeamMutations();
  const { error, busy, run } = useAction();
  const isAdmin = overview.role === "admin";
  const canWrite = overview.role !== "viewer";
  const ownKey = overview.keys.find((k) => k.own) ?? null;

  return (
    <>
      <section className="card">
        <h1>{overview.team.name}</h1>
        <dl className="facts">
          <dt>Your role</dt>
          <dd data-testid="team-role" className="nowrap">{overview.role}</dd>
          <dt>Owner</dt>
          <dd>
            <Email address={overview.team.ownerEmail} />
          </dd>
        </dl>
        {!overview.team.ownerOnBusiness && (
          <p className="error">The team&apos;s owner is not on the Business plan: the team&apos;s keys are refused (403) until they upgrade.</p>
        )}
        {error && <p className="error" data-testid="team-error">{error}</p>}
      </section>

      <KeyPanel
        title="Your business key"
        intro={
          <>
            The key acts on the team library through <code>/v1</code>. What you create with it is a draft until an admin approves it, and it remembers that you
            created it.
          </>
        }
        refusal={canWrite ? null : "Viewers hold no business key: ask an admin to make you a writer."}
        current={ownKey}
        generateLabel="Generate business key"
        revokeLabel="Revoke business key"
        generate={() => mutations.generateKey.mutateAsync()}
        revoke={() => mutations.revokeKey.mutateAsync({ keyId: ownKey!.id })}
      />

      {isAdmin && (
        <section className="card">
          <h2>Team keys</h2>
          {overview.keys.length === 0 ? (
            <p className="muted">No live business keys.</p>
          ) : (
            <div className="table-scroll">
            <table className="table stack">
              <thead>
                <tr>
                  <th>Member</th>
                  <th>Key</th>
                  <th>Created</th>
                  <th>Last used</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {overview.keys.map((key) => (
                  <tr key={key.id} data-testid={`team-key-${key.email}`}>
                    <td className="email-cell">
                      <Email address={key.email} />
                    </td>
                    <td className="mono nowrap" data-label="Key">{key.display}</td>
                    <td className="nowrap" data-label="Created">{when(key.createdAt)}</td>
                    <td className="nowrap" data-label="Last used">{when(key.lastUsedAt)}</td>
                    <td>
                      <button
                        type="button"
                        className="danger"
                        disabled={busy}
                        onClick={() => {
                          if (window.confirm(`Revoke ${key.email}'s business key? Their programs stop working at once.`)) void run(() => mutations.revokeKey.mutateAsync({ keyId: key.id }));
                        }}
                      >
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            </div>
          )}
        </section>
      )}

      <Suspense fallback={<section className="card"><p className="muted">Loading the review queue…</p></section>}>
        <ReviewQueue isAdmin={isAdmin} />
      </Suspense>
      <Suspense fallback={<section className="card"><p className="muted">Loading the changes waiting for review…</p></section>}>
        <PendingChanges isAdmin={isAdmin} />
      </Suspense>
      <Members overview={overview} mutations={mutations} />
      {isAdmin && <WebhooksPanel scope="team" />}
      {isAdmin && <ActivityPanel scope="team" />}
      <CsvImport libraryKind="team" />
      <Suspense fallback={<section className="card"><p className="muted">Loading the team library…</p></section>}>
        <Library libraryKind="team" title="Team library" />
      </Suspense>
    </>
  );
}

type Section = { overview: TeamOverview; mutations: TeamMutations };

function Members({ overview, mutations }: Section) {
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
                    {isAdmin ? (
                      <select
                        aria-label={`Role of ${member.email}`}
                        value={member.role}
                        disabled={rows.busy}
                        onChange={(e) => change(() => mutations.setRole.mutateAsync({ userId: member.userId, role: e.target.value as Role }))}
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>{r}</option>
                        ))}
                      </select>
                    ) : (
                      member.role
                    )}
                  </td>
                  {isAdmin && (
                    <td>
                      <span className="actions tight member-actions">
                        {overview.isOwner && member.role === "admin" && !member.isOwner && (
                          <button
                            type="button"
                            className="secondary"
                            disabled={rows.busy}
                            onClick={() => {
                              const keys = member.onBusiness
                                ? "The team's keys then depend on their Business plan."
                                : "They are not on the Business plan: the team's keys will be refused (403) until they upgrade.";
                              if (window.confirm(`Make ${member.email} the team's owner? ${keys} You stay an admin.`)) change(() => mutations.makeOwner.mutateAsync({ userId: member.userId }));
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
                            if (window.confirm(`Remove ${member.email} from the team? Their business key is revoked and their sessions end at once.`)) change(() => mutations.removeMember.mutateAsync({ userId: member.userId }));
                          }}
                        >
                          Remove
                        </button>
                      </span>
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
              <option key={r} value={r}>{r}</option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={inviting.busy}>Invite</button>
        <FormError error={inviting.error} testId="member-error" className="full" />
        {sentTo && (
          <p className="full muted" role="status" data-testid="invitation-sent">
            Invitation sent to <Email address={sentTo} />. The link works once, for 7 days.
          </p>
        )}
      </form>
      <h3>Pending invitations</h3>
      {pending.length === 0 ? (
        <p className="muted" data-testid="no-invitations">No pending invitations.</p>
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
              <FormError error={rows.errorAt(invitation.id)} testId={`invitation-error-${invitation.email}`} className="full" />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
