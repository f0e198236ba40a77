"use client";
// /business: the team, its members, the business keys, the review queue and the team library.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { Suspense, useState } from "react";
import type { Role } from "@/server/domain/teams";
import { useTRPC, type RouterOutputs } from "@/trpc/react";
import { Email } from "./Email";
import { FormError } from "./FormError";
import { KeyPanel, when } from "./KeyPanel";
import { Library, useLibraryChanged } from "./Library";
import { libraryPageInput } from "./libraryPageInput";
import { useAction } from "./useAction";

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
          You are not in a team. Creating one takes the Business plan (yours is <strong>{account.tier}</strong>); or ask a team&apos;s admin to add{" "}
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
  const withLibrary = { onSuccess: libraryChanged };
  return {
    generateKey: useMutation(trpc.team.generateKey.mutationOptions(overviewOnly)),
    revokeKey: useMutation(trpc.team.revokeKey.mutationOptions(overviewOnly)),
    addMember: useMutation(trpc.team.addMember.mutationOptions(overviewOnly)),
    // A role decides what the library lets its holder do; a member removed leaves it.
    setRole: useMutation(trpc.team.setRole.mutationOptions(withLibrary)),
    removeMember: useMutation(trpc.team.removeMember.mutationOptions(withLibrary)),
    // A reviewed draft leaves the queue and changes its status in the library.
    approve: useMutation(trpc.team.approve.mutationOptions(withLibrary)),
    reject: useMutation(trpc.team.reject.mutationOptions(withLibrary)),
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

      <ReviewQueue overview={overview} mutations={mutations} busy={busy} run={run} />
      <Members overview={overview} mutations={mutations} busy={busy} run={run} />
      <Suspense fallback={<section className="card"><p className="muted">Loading the team library…</p></section>}>
        <Library libraryKind="team" title="Team library" />
      </Suspense>
    </>
  );
}

type Section = { overview: TeamOverview; mutations: TeamMutations; busy: boolean; run: (action: () => Promise<unknown>) => Promise<void> };

function ReviewQueue({ overview, mutations, busy, run }: Section) {
  const isAdmin = overview.role === "admin";
  return (
    <section className="card" aria-labelledby="review-title">
      <h2 id="review-title">Review queue</h2>
      {overview.drafts.length === 0 ? (
        <p className="muted" data-testid="no-drafts">Nothing waits for review.</p>
      ) : (
        <ul className="list">
          {overview.drafts.map((draft) => (
            <li key={`${draft.kind}-${draft.id}`} data-testid={`draft-${draft.id}`}>
              <div>
                <strong>{draft.name}</strong> <span className="badge">{draft.kind}</span>
                <div className="muted">
                  {draft.target} · by <Email address={draft.createdBy} /> · {when(draft.createdAt)}
                </div>
              </div>
              {isAdmin ? (
                <span className="actions tight">
                  <button type="button" disabled={busy} onClick={() => void run(() => mutations.approve.mutateAsync({ kind: draft.kind, id: draft.id }))}>Approve</button>
                  <button
                    type="button"
                    className="danger"
                    disabled={busy}
                    onClick={() => {
                      if (window.confirm(`Reject “${draft.name}”? The draft is deleted and its creator has to submit it again.`)) {
                        void run(() => mutations.reject.mutateAsync({ kind: draft.kind, id: draft.id }));
                      }
                    }}
                  >
                    Reject
                  </button>
                </span>
              ) : (
                <span className="muted">waiting for an admin</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Members({ overview, mutations, busy, run }: Section) {
  const isAdmin = overview.role === "admin";
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("writer");
  // Adding a member has its own error, shown at its form and cleared by the next change.
  const adding = useAction();
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
          {overview.members.map((member) => (
            <tr key={member.userId} data-testid={`member-${member.email}`}>
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
                    disabled={busy}
                    onChange={(e) => void run(() => mutations.setRole.mutateAsync({ userId: member.userId, role: e.target.value as Role }))}
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
                  <button
                    type="button"
                    className="secondary"
                    disabled={busy}
                    onClick={() => {
                      if (window.confirm(`Remove ${member.email} from the team? Their business key is revoked at once.`)) void run(() => mutations.removeMember.mutateAsync({ userId: member.userId }));
                    }}
                  >
                    Remove
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      {isAdmin && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void adding.run(async () => {
              await mutations.addMember.mutateAsync({ email, role });
              setEmail("");
            });
          }}
        >
          <div>
            <label htmlFor="member-email">Email</label>
            <input
              id="member-email"
              type="email"
              value={email}
              onChange={(e) => {
                adding.clear();
                setEmail(e.target.value);
              }}
              required
            />
          </div>
          <div>
            <label htmlFor="member-role">Role</label>
            <select
              id="member-role"
              value={role}
              onChange={(e) => {
                adding.clear();
                setRole(e.target.value as Role);
              }}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>{r}</option>
              ))}
            </select>
          </div>
          <button type="submit" disabled={busy || adding.busy}>Add member</button>
          <FormError error={adding.error} testId="member-error" className="full" />
        </form>
      )}
    </section>
  );
}
