"use client";
import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { AUTHENTICATION_CODE_REQUIRED } from "@/server/accounts/accountWords";
import { HOME } from "./ownPath";
import { useAction } from "../ui/useAction";
import { useHydrated } from "../ui/useHydrated";

export function LoginForm({ next, email }: { next: string; email: string }) {
  const router = useRouter();
  const { error, busy, run } = useAction();
  const hydrated = useHydrated();
  // Shown once the password was right and the account has two-factor authentication.
  const [askCode, setAskCode] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (askCode) codeInput.current?.focus();
  }, [askCode]);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void run(async () => {
      const result = await signIn("credentials", {
        email: form.get("email"),
        password: form.get("password"),
        code: form.get("code") ?? "",
        redirect: false,
      });
      if (result?.error === AUTHENTICATION_CODE_REQUIRED) {
        setAskCode(true);
        return;
      }
      if (!result || result.error)
        throw new Error(
          result?.error && result.error !== "CredentialsSignin" ? result.error : "Wrong email or password",
        );
      router.replace(next);
      router.refresh();
    });
  }

  return (
    <section className="card narrow">
      <h1>Log in</h1>
      <form method="post" onSubmit={submit}>
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="email" defaultValue={email} required />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        {askCode && (
          <>
            <label htmlFor="code">Authentication code</label>
            <input
              ref={codeInput}
              id="code"
              name="code"
              autoComplete="one-time-code"
              aria-describedby="code-help"
              required
            />
            <p id="code-help" className="muted">
              The 6 digits your authenticator app shows, or one of your recovery codes.
            </p>
          </>
        )}
        {error && (
          <p className="error" data-testid="form-error">
            {error}
          </p>
        )}
        <p className="actions">
          <button type="submit" disabled={busy || !hydrated}>
            Log in
          </button>
        </p>
      </form>
      <p className="muted">
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
      <p className="muted">
        No account yet?{" "}
        <Link href={next === HOME ? "/signup" : `/signup?${new URLSearchParams({ email, next })}`}>Sign up</Link>
      </p>
    </section>
  );
}
