"use client";
// One API key of the account: generate (shown once, with a copy button), see it as
// prefix…last four, revoke. Used for the personal key (/profile) and the business key (/business).
import { useState } from "react";
import { VERIFY_FIRST } from "@/server/accounts/accountWords";
import { useAction } from "../ui/useAction";

type Stamp = Date | string;
export type KeyView = { display: string; createdAt: Stamp; activeFrom: Stamp; lastUsedAt: Stamp | null };

export const when = (date: Stamp | null) => (date ? new Date(date).toLocaleString() : "never");
export const isActive = (key: KeyView) => new Date(key.activeFrom).getTime() <= Date.now();

export function KeyPanel(props: {
  title: string;
  intro: React.ReactNode;
  /** Why this account cannot hold the key, if it cannot. */
  refusal: React.ReactNode | null;
  current: KeyView | null;
  generateLabel: string;
  revokeLabel: string;
  /** Each is a mutation whose invalidation reloads what the page shows of the key. */
  generate: () => Promise<{ key: string }>;
  revoke: () => Promise<unknown>;
}) {
  const [newKey, setNewKey] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const { error, busy, run: act } = useAction();

  const generate = () =>
    act(async () => {
      setNewKey((await props.generate()).key);
      setCopied(false);
    });

  const revoke = () => {
    if (!window.confirm("Revoke this key? Programs using it stop working at once.")) return;
    void act(async () => {
      await props.revoke();
      setNewKey(null);
    });
  };

  async function copy() {
    if (!newKey) return;
    await navigator.clipboard.writeText(newKey).catch(() => undefined);
    setCopied(true);
  }

  const key = props.current;
  return (
    <section className="card">
      <h2>{props.title}</h2>
      <p className="muted">{props.intro}</p>
      {error && (
        <p className="error" data-testid="key-error">
          {error}
        </p>
      )}
      {/* One Resend on the page: the notice every page of an unverified account opens with. */}
      {error === VERIFY_FIRST && (
        <p className="muted" data-testid="verify-first-hint">
          Open the link in the mail we sent; <a href="#verify-notice">the notice at the top of the page</a> sends it
          again.
        </p>
      )}
      {props.refusal ? (
        <p data-testid="no-api-access">{props.refusal}</p>
      ) : (
        <>
          {newKey && (
            <div className="notice">
              <p>This is your new key. Copy it now: it will not be shown again.</p>
              <div className="key-box">
                <code data-testid="new-api-key">{newKey}</code>
                <button type="button" className="secondary" onClick={copy}>
                  {copied ? "Copied" : "Copy"}
                </button>
              </div>
            </div>
          )}
          {key ? (
            <>
              <dl className="facts">
                <dt>Key</dt>
                <dd className="mono nowrap" data-testid="api-key-display">
                  {key.display}
                </dd>
                <dt>Created</dt>
                <dd>{when(key.createdAt)}</dd>
                <dt>Active from</dt>
                <dd>
                  {isActive(key)
                    ? when(key.activeFrom)
                    : `${when(key.activeFrom)} (not active yet: requests are refused until then)`}
                </dd>
                <dt>Last used</dt>
                <dd>{when(key.lastUsedAt)}</dd>
              </dl>
              <p className="actions">
                <button type="button" className="danger" onClick={revoke} disabled={busy}>
                  {props.revokeLabel}
                </button>
              </p>
              {/* One live key at a time: no Generate while this one lives (the server would refuse it). */}
              <p className="muted" data-testid="one-key-note">
                One key at a time: revoke this one to generate a new one.
              </p>
            </>
          ) : (
            <p className="actions">
              <button type="button" onClick={generate} disabled={busy}>
                {props.generateLabel}
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}
