"use client";
// /profile: move the account to another address. The password is asked again (and the
// authentication code when two-factor is on): a session left open must not be enough to take
// the account. The new address confirms it from a mail; until then nothing changes. The
// password field shows once a new address is typed, so the page's `Current password` of the
// password form stays the only one until then.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";

export function EmailPanel() {
  const trpc = useTRPC();
  const change = useMutation(trpc.account.changeEmail.mutationOptions());
  const twoFactor = useQuery(trpc.twoFactor.status.queryOptions());
  const { error, busy, run, clear } = useAction();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [typed, setTyped] = useState(false);
  const askCode = twoFactor.data?.enabled ?? false;

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const email = String(data.get("email")).trim();
    setSentTo(null);
    void run(async () => {
      await change.mutateAsync({
        email,
        currentPassword: String(data.get("currentPassword") ?? ""),
        ...(askCode ? { code: String(data.get("code") ?? "") } : {}),
      });
      form.reset();
      setTyped(false);
      setSentTo(email);
    });
  }

  return (
    <section className="card" data-testid="email-panel">
      <h2>Email address</h2>
      <form method="post" onSubmit={submit} onChange={clear}>
        <div className="inline-form">
          <div>
            <label htmlFor="new-email">New email</label>
            <input
              id="new-email"
              name="email"
              type="email"
              autoComplete="email"
              required
              onInput={(e) => setTyped(e.currentTarget.value !== "")}
            />
          </div>
          {typed && (
            <div>
              <label htmlFor="email-current-password">Current password</label>
              <input
                id="email-current-password"
                name="currentPassword"
                type="password"
                autoComplete="current-password"
                maxLength={200}
                required
              />
            </div>
          )}
          {typed && askCode && (
            <div>
              <label htmlFor="email-code">Authentication code</label>
              <input id="email-code" name="code" autoComplete="one-time-code" maxLength={100} required />
            </div>
          )}
          <button type="submit" disabled={busy}>
            Change email
          </button>
        </div>
        <FormError error={error} />
        {sentTo && (
          <p className="notice" role="status">
            We sent a link to {sentTo}: the change applies once you open it (within 24 hours).
          </p>
        )}
      </form>
    </section>
  );
}
