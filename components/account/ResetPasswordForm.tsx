"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";
import { useHydrated } from "../ui/useHydrated";

export function ResetPasswordForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const reset = useMutation(trpc.account.resetPassword.mutationOptions());
  const { error, busy, run } = useAction();
  const hydrated = useHydrated();
  const [done, setDone] = useState(false);
  const [visible, setVisible] = useState(false);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password"));
    void run(async () => {
      await reset.mutateAsync({ token, password });
      setDone(true);
    });
  }

  return (
    <section className="card narrow">
      <h1>Set a new password</h1>
      {done ? (
        <>
          <p className="notice" role="status" data-testid="reset-done">
            Your password was changed, and every session of your account was logged out.
          </p>
          <p className="actions">
            <Link className="button" href="/login">
              Log in
            </Link>
          </p>
        </>
      ) : (
        <form method="post" onSubmit={submit}>
          <label htmlFor="password">New password</label>
          <input
            id="password"
            name="password"
            type={visible ? "text" : "password"}
            autoComplete="new-password"
            minLength={8}
            maxLength={200}
            required
          />
          <label className="check">
            <input type="checkbox" checked={visible} onChange={(e) => setVisible(e.target.checked)} /> Show password
          </label>
          <p className="muted small-text">At least 8 characters. Every session of your account is logged out.</p>
          <FormError error={error} testId="form-error" />
          <p className="actions">
            <button type="submit" disabled={busy || !hydrated}>
              Set new password
            </button>
          </p>
        </form>
      )}
      {error && (
        <p className="muted">
          <Link href="/forgot-password">Ask for a new link</Link>
        </p>
      )}
    </section>
  );
}
