"use client";
// /business: the team, its members, the business keys, the review queue and the team library.
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { LibraryPage } from "@/server/domain/libraryItems";
import type { Role, TeamOverview } from "@/server/domain/teams";
import { KeyPanel, when } from "./KeyPanel";
import { Library } from "./Library";
import { trpc } from "./trpc";
import { useAction } from "./useAction";

const ROLES: Role[] = ["admin", "writer", "viewer"];

export function CreateTeamForm() {
  const router = useRouter();
  const [name, setName] = useState("");
  const { error, busy, run } = useAction(async () => router.refresh());
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void run(() => trpc.team.create.mutate({ name }));
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

export function BusinessPanel({ initial, initialLibrary }: { initial: TeamOverview; initialLibrary: LibraryPage }) {
  const [overview, setOverview] = useState<TeamOverview>(initial);
  const [version, setVersion] = useState(0);
  const reloadOverview = async () => {
    const next = await trpc.team.overview.query();
    if (next) setOverview(next);
  };
  // A review or a member's change can change the library too.
  const reload = async () => {
    await reloadOverview();
    setVersion((v) => v + 1);
  };
  const { error, busy, run } = useAction(reload);
  const isAdmin = overview.role === "admin";
  const canWrite = overview.role !== "viewer";
  const ownKey = overview.keys.find((k) => k.own) ?? null;

  return (
    <>
      <section className="card">
        <h1>{overview.team.name}</h1>
        <dl className="facts">
          <dt>Your role</dt>
          <dd data-testid="team-role">{overview.role}</dd>
          <dt>Owner</dt>
          <dd>{overview.team.ownerEmail}</dd>
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
        generate={() => trpc.team.generateKey.mutate()}
        revoke={() => trpc.team.revokeKey.mutate({ keyId: ownKey!.id })}
        refresh={reload}
      />

      {isAdmin && (
        <section className="card">
          <h2>Team keys</h2>
          {overview.keys.length === 0 ? (
            <p className="muted">No live business keys.</p>
          ) : (
            <div className="table-scroll">
            <table className="table">
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
                    <td>{key.email}</td>
                    <td className="mono">{key.display}</td>
                    <td>{when(key.createdAt)}</td>
                    <td>{when(key.lastUsedAt)}</td>
                    <td>
                      <button
                        type="button"
                        className="danger"
                        disabled={busy}
                        onClick={() => {
                          if (window.confirm(`Revoke ${key.email}'s business key? Their programs stop working at once.`)) void run(() => trpc.team.revokeKey.mutate({ keyId: key.id }));
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

      <ReviewQueue overview={overview} busy={busy} run={run} />
      <Members overview={overview} busy={busy} run={run} />
      <Library scope="team" title="Team library" initial={initialLibrary} onChange={reloadOverview} refreshKey={version} />
    </>
  );
}

type Section = { overview: TeamOverview; busy: boolean; run: (action: () => Promise<unknown>) => Promise<void> };

function ReviewQueue({ overview, busy, run }: Section) {
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
                  {draft.target} · by {draft.createdBy} · {when(draft.createdAt)}
                </div>
              </div>
              {isAdmin ? (
                <span className="actions tight">
                  <button type="button" disabled={busy} onClick={() => void run(() => trpc.team.approve.mutate({ kind: draft.kind, id: draft.id }))}>Approve</button>
                  <button type="button" className="danger" disabled={busy} onClick={() => void run(() => trpc.team.reject.mutate({ kind: draft.kind, id: draft.id }))}>
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

function Members({ overview, busy, run }: Section) {
  const isAdmin = overview.role === "admin";
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("writer");
  return (
    <section className="card" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <div className="table-scroll">
      <table className="table">
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
              <td>
                {member.name} <span className="muted">{member.email}</span> {member.isOwner && <span className="badge">owner</span>}
              </td>
              <td>
                {isAdmin ? (
                  <select
                    aria-label={`Role of ${member.email}`}
                    value={member.role}
                    disabled={busy}
                    onChange={(e) => void run(() => trpc.team.setRole.mutate({ userId: member.userId, role: e.target.value as Role }))}
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
                      if (window.confirm(`Remove ${member.email} from the team? Their business key is revoked at once.`)) void run(() => trpc.team.removeMember.mutate({ userId: member.userId }));
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
            void run(async () => {
              await trpc.team.addMember.mutate({ email, role });
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
          <button type="submit" disabled={busy}>Add member</button>
        </form>
      )}
    </section>
  );
}
