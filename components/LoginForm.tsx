"use client";
import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useAction } from "./useAction";

export function LoginForm({ next, email }: { next: string; email: string }) {
  const router = useRouter();
  const { error, busy, run } = useAction();

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void run(async () => {
      const result = await signIn("credentials", { email: form.get("email"), password: form.get("password"), redirect: false });
      if (!result || result.error) throw new Error(result?.error && result.error !== "CredentialsSignin" ? result.error : "Wrong email or password");
      router.replace(next);
      router.refresh();
    });
  }

  return (
    <section className="card narrow">
      <h1>Log in</h1>
      <form onSubmit={submit}>
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="email" defaultValue={email} required />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        {error && <p className="error" data-testid="form-error">{error}</p>}
        <p className="actions">
          <button type="submit" disabled={busy}>Log in</button>
        </p>
      </form>
      <p className="muted"><Link href="/forgot-password">Forgot your password?</Link></p>
      <p className="muted">No account yet? <Link href={next === "/profile" ? "/signup" : `/signup?${new URLSearchParams({ email, next })}`}>Sign up</Link></p>
    </section>
  );
}
