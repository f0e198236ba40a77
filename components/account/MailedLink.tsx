"use client";
// A page opened from a mailed link (/verify-email, /confirm-email, /undo-email-change): it uses the token once,
// through a tRPC mutation (so the Origin check applies as to every other action), and says
// what happened.
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "@/trpc/react";
import { messageOf } from "../ui/useAction";

const TITLES = {
  verify: "Verify your email address",
  confirm: "Confirm your new email address",
  undo: "Undo the email change",
};

export function MailedLink({ kind, token }: { kind: keyof typeof TITLES; token: string }) {
  const trpc = useTRPC();
  const verify = useMutation(trpc.account.verifyEmail.mutationOptions());
  const confirm = useMutation(trpc.account.confirmEmail.mutationOptions());
  const undo = useMutation(trpc.account.undoEmailChange.mutationOptions());
  const [state, setState] = useState<{ email?: string; error?: string } | null>(null);
  // Once per page load, also when React runs effects twice in development.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    ({ verify, confirm, undo })[kind].mutateAsync({ token }).then(
      ({ email }) => setState({ email }),
      (error: unknown) => setState({ error: messageOf(error) }),
    );
  }, [kind, token, verify, confirm, undo]);

  const title = TITLES[kind];
  return (
    <section className="card narrow">
      <h1>{title}</h1>
      {!state && (
        <p className="muted" role="status">
          Checking the link…
        </p>
      )}
      {state?.email && (
        <>
          <p className="notice" role="status" data-testid="link-done">
            {kind === "verify" && (
              <>
                Your email address <strong>{state.email}</strong> is verified.
              </>
            )}
            {kind === "confirm" && (
              <>
                Your account now uses <strong>{state.email}</strong>.
              </>
            )}
            {kind === "undo" && (
              <>
                Your account uses <strong>{state.email}</strong> again, and every session was logged out. Set a new
                password with the link we sent to that address.
              </>
            )}
          </p>
          <p className="actions">
            {kind === "undo" ? (
              <Link className="button" href="/forgot-password">
                Send another reset link
              </Link>
            ) : (
              <Link className="button" href="/profile">
                Go to your profile
              </Link>
            )}
          </p>
        </>
      )}
      {state?.error && (
        <p className="error" role="alert" data-testid="form-error">
          {state.error}
        </p>
      )}
    </section>
  );
}
