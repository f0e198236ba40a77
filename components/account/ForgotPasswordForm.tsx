"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";
import { useHydrated } from "../ui/useHydrated";

export function ForgotPasswordForm() {
  const trpc = useTRPC();
  const forgot = useMutation(trpc.account.forgotPassword.mutationOptions());
  const { error, busy, run } = useAction();
  const hydrated = useHydrated();
  const [sentTo, setSentTo] = useState<string | null>(null);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email")).trim();
    void run(async () => {
      await forgot.mutateAsync({ email });
      setSentTo(email);
    });
  }

  return (
    <section className="card narrow">
      <h1>Forgot your password?</h1>
      <p className="muted">
        Enter the email address of your account and we will send you a link to set a new password. The link works once,
        for 1 hour.
      </p>
      <form method="post" onSubmit={submit}>
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="email" required />
        <FormError error={error} testId="form-error" />
        {/* The same words whether or not the account exists. */}
        {sentTo && !error && (
          <p className="notice" role="status" data-testid="reset-sent">
            If an account uses {sentTo}, a reset link is on its way. Check your inbox.
          </p>
        )}
        <p className="actions">
          <button type="submit" disabled={busy || !hydrated}>
            Send reset link
          </button>
        </p>
      </form>
      <p className="muted">
        <Link href="/login">Back to log in</Link>
      </p>
    </section>
  );
}
