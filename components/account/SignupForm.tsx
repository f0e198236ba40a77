"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { HOME } from "./ownPath";
import { useAction } from "../ui/useAction";
import { useHydrated } from "../ui/useHydrated";

export function SignupForm({ email: invited, next }: { email: string; next: string }) {
  const router = useRouter();
  const trpc = useTRPC();
  const signup = useMutation(trpc.account.signup.mutationOptions());
  const { error, busy, run } = useAction();
  const hydrated = useHydrated();
  // Once the account is made and logged in, the form stays disabled while the next page loads.
  const [done, setDone] = useState(false);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email"));
    const password = String(form.get("password"));
    void run(async () => {
      await signup.mutateAsync({ email, password, name: String(form.get("name")) });
      const result = await signIn("credentials", { email, password, redirect: false });
      // An address that already has an account gets the same answer to the sign-up and its
      // owner a mail; the log-in then fails unless the password was the account's own.
      if (!result || result.error) throw new Error(`We sent a mail to ${email}: follow it, or log in`);
      setDone(true);
      router.replace(next);
      router.refresh();
    });
  }

  return (
    <section className="card narrow">
      <h1>Create your account</h1>
      <form method="post" onSubmit={submit}>
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="email" defaultValue={invited} required />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="new-password" minLength={8} required />
        <label htmlFor="name">Name</label>
        <input id="name" name="name" type="text" autoComplete="name" required />
        {error && (
          <p className="error" data-testid="form-error">
            {error}
          </p>
        )}
        <p className="actions">
          <button type="submit" disabled={busy || done || !hydrated}>
            Create account
          </button>
        </p>
      </form>
      <p className="muted">
        Already registered?{" "}
        <Link href={next === HOME ? "/login" : `/login?${new URLSearchParams({ email: invited, callbackUrl: next })}`}>
          Log in
        </Link>
      </p>
    </section>
  );
}
