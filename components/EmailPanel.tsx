"use client";
// /profile: move the account to another address. The new address confirms it from a mail;
// until then nothing changes.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { FormError } from "./FormError";
import { useAction } from "./useAction";

export function EmailPanel() {
  const trpc = useTRPC();
  const change = useMutation(trpc.account.changeEmail.mutationOptions());
  const { error, busy, run, clear } = useAction();
  const [sentTo, setSentTo] = useState<string | null>(null);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const email = String(new FormData(form).get("email")).trim();
    setSentTo(null);
    void run(async () => {
      await change.mutateAsync({ email });
      form.reset();
      setSentTo(email);
    });
  }

  return (
    <section className="card" data-testid="email-panel">
      <h2>Email address</h2>
      <form onSubmit={submit} onChange={clear}>
        <div className="inline-form">
          <div>
            <label htmlFor="new-email">New email</label>
            <input id="new-email" name="email" type="email" autoComplete="email" required />
          </div>
          <button type="submit" disabled={busy}>Change email</button>
        </div>
        <FormError error={error} />
        {sentTo && <p className="notice" role="status">We sent a link to {sentTo}: the change applies once you open it (within 24 hours).</p>}
      </form>
    </section>
  );
}
