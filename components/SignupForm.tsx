"use client";
import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { messageOf, trpc } from "./trpc";

export function SignupForm() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email"));
    const password = String(form.get("password"));
    setBusy(true);
    setError(null);
    try {
      await trpc.account.signup.mutate({ email, password, name: String(form.get("name")) });
      const result = await signIn("credentials", { email, password, redirect: false });
      if (!result || result.error) throw new Error("Account created, but the log-in failed: log in by hand");
      router.replace("/profile");
      router.refresh();
    } catch (e) {
      setError(messageOf(e));
      setBusy(false);
    }
  }

  return (
    <section className="card narrow">
      <h1>Create your account</h1>
      <form onSubmit={submit}>
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="email" required />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="new-password" minLength={8} required />
        <label htmlFor="name">Name</label>
        <input id="name" name="name" autoComplete="name" required />
        {error && <p className="error" data-testid="form-error">{error}</p>}
        <p className="actions">
          <button type="submit" disabled={busy}>Create account</button>
        </p>
      </form>
      <p className="muted">Already registered? <Link href="/login">Log in</Link></p>
    </section>
  );
}
