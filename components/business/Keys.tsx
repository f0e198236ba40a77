"use client";
// /business, section "Keys": the member's own business key and (admins) every teammate's.
import { KeyPanel, when } from "../keys/KeyPanel";
import { Email } from "../ui/Email";
import { useAction } from "../ui/useAction";
import type { Section } from "./teamMutations";

export function Keys({ overview, mutations }: Section) {
  const canWrite = overview.role !== "viewer";
  const ownKey = overview.keys.find((k) => k.own) ?? null;
  return (
    <>
      <KeyPanel
        title="Your business key"
        intro={
          <>
            The key acts on the team library through <code>/v1</code>. What you create with it is a draft until an admin
            approves it, and it remembers that you created it.
          </>
        }
        refusal={canWrite ? null : "Viewers hold no business key: ask an admin to make you a writer."}
        current={ownKey}
        generateLabel="Generate business key"
        revokeLabel="Revoke business key"
        generate={() => mutations.generateKey.mutateAsync()}
        revoke={() => mutations.revokeKey.mutateAsync({ keyId: ownKey!.id })}
      />
      {overview.role === "admin" && <TeamKeys overview={overview} mutations={mutations} />}
    </>
  );
}

function TeamKeys({ overview, mutations }: Section) {
  const { error, busy, run } = useAction();
  return (
    <section className="card" aria-labelledby="team-keys-title">
      <h2 id="team-keys-title">Team keys</h2>
      {error && (
        <p className="error" data-testid="team-error">
          {error}
        </p>
      )}
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
                  <td className="mono nowrap" data-label="Key">
                    {key.display}
                  </td>
                  <td className="nowrap" data-label="Created">
                    {when(key.createdAt)}
                  </td>
                  <td className="nowrap" data-label="Last used">
                    {when(key.lastUsedAt)}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="danger"
                      disabled={busy}
                      onClick={() => {
                        if (window.confirm(`Revoke ${key.email}'s business key? Their programs stop working at once.`))
                          void run(() => mutations.revokeKey.mutateAsync({ keyId: key.id }));
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
  );
}
