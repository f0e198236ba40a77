"use client";
// /profile: change the password. Every other session of the account ends; this browser gets
// a new session cookie with the answer and stays logged in.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";

export function PasswordPanel() {
  const trpc = useTRPC();
  const change = useMutation(trpc.account.changePassword.mutationOptions());
  const { error, busy, run, clear } = useAction();
  const [done, setDone] = useState(false);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setDone(false);
    void run(async () => {
      await change.mutateAsync({
        currentPassword: String(data.get("currentPassword")),
        newPassword: String(data.get("newPassword")),
      });
      form.reset();
      setDone(true);
    });
  }

  return (
    <section className="card" data-testid="password-panel">
      <h2>Password</h2>
      <form method="post" onSubmit={submit} onChange={clear}>
        <div className="inline-form">
          <div>
            <label htmlFor="current-password">Current password</label>
            <input
              id="current-password"
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              required
            />
          </div>
          <div>
            <label htmlFor="new-password">New password</label>
            <input
              id="new-password"
              name="newPassword"
              type="password"
              autoComplete="new-password"
              minLength={8}
              maxLength={200}
              required
            />
          </div>
          <button type="submit" disabled={busy}>
            Change password
          </button>
        </div>
        <FormError error={error} />
        {done && (
          <p className="notice" role="status">
            Password changed. Your other sessions were logged out; this one goes on.
          </p>
        )}
      </form>
    </section>
  );
}
