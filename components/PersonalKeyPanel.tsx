"use client";
import { useState } from "react";
import { messageOf, trpc } from "./trpc";

type Stamp = Date | string;
export type KeyInfo = {
  tier: string;
  key: { display: string; createdAt: Stamp; activeFrom: Stamp; active: boolean; lastUsedAt: Stamp | null } | null;
};

const when = (date: Date | string | null) => (date ? new Date(date).toLocaleString() : "never");

export function PersonalKeyPanel({ initial }: { initial: KeyInfo }) {
  const [info, setInfo] = useState<KeyInfo>(initial);
  const [newKey, setNewKey] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function act(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      setInfo(await trpc.keys.personal.query());
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  const generate = () =>
    act(async () => {
      const result = await trpc.keys.generatePersonal.mutate();
      setNewKey(result.key);
      setCopied(false);
    });

  const revoke = () => {
    if (!window.confirm("Revoke your API key? Programs using it stop working at once.")) return;
    void act(async () => {
      await trpc.keys.revokePersonal.mutate();
      setNewKey(null);
    });
  };

  async function copy() {
    if (!newKey) return;
    await navigator.clipboard.writeText(newKey).catch(() => undefined);
    setCopied(true);
  }

  const canUseApi = info.tier === "pro" || info.tier === "business";

  return (
    <section className="card" aria-labelledby="api-key-title">
      <h2 id="api-key-title">Personal API key</h2>
      <p className="muted">The key acts on your personal library through the API under <code>/v1</code>. Send it in the <code>x-api-key</code> header.</p>
      {error && <p className="error" data-testid="key-error">{error}</p>}
      {!canUseApi ? (
        <p data-testid="no-api-access">
          API access is part of the Pro and Business plans. Your plan is <strong>{info.tier}</strong>: upgrade to generate a key.
        </p>
      ) : (
        <>
          {newKey && (
            <div className="notice">
              <p>This is your new key. Copy it now: it will not be shown again.</p>
              <div className="key-box">
                <code data-testid="new-api-key">{newKey}</code>
                <button type="button" className="secondary" onClick={copy}>{copied ? "Copied" : "Copy"}</button>
              </div>
            </div>
          )}
          {info.key ? (
            <>
              <dl className="facts">
                <dt>Key</dt>
                <dd className="mono" data-testid="api-key-display">{info.key.display}</dd>
                <dt>Created</dt>
                <dd>{when(info.key.createdAt)}</dd>
                <dt>Active from</dt>
                <dd>{info.key.active ? when(info.key.activeFrom) : `${when(info.key.activeFrom)} (not active yet: requests are refused until then)`}</dd>
                <dt>Last used</dt>
                <dd>{when(info.key.lastUsedAt)}</dd>
              </dl>
              <p className="actions">
                <button type="button" className="danger" onClick={revoke} disabled={busy}>Revoke API key</button>
                <button type="button" className="secondary" onClick={generate} disabled={busy}>Generate API key</button>
              </p>
              <p className="muted">One key at a time: revoke this one before generating a new one.</p>
            </>
          ) : (
            <p className="actions">
              <button type="button" onClick={generate} disabled={busy}>Generate API key</button>
            </p>
          )}
        </>
      )}
    </section>
  );
}
