"use client";
// Delete account on /profile: the typed email and the password confirm it; the server refuses
// while the account owns a team with other members. Once deleted, the browser is logged out.
import { useMutation } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { Email } from "../ui/Email";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";

export function DeleteAccountPanel({ email }: { email: string }) {
  const trpc = useTRPC();
  const remove = useMutation(trpc.account.delete.mutationOptions());
  const { error, busy, run, clear } = useAction();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [password, setPassword] = useState("");
  const [deleted, setDeleted] = useState(false);
  return (
    <section className="card" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete account</h2>
      <p className="muted">
        Your keys are revoked, your library is deleted (its short links answer “gone”), and you are logged out
        everywhere. A team you own must first be handed to another admin, unless you are its only member: then it goes
        too. This cannot be undone.
      </p>
      {!open ? (
        <p className="actions">
          <button type="button" className="danger" onClick={() => setOpen(true)}>
            Delete account
          </button>
        </p>
      ) : (
        <form
          method="post"
          onChange={clear}
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              await remove.mutateAsync({ email: typed, password });
              setDeleted(true);
              await signOut({ callbackUrl: "/account-deleted" });
            });
          }}
        >
          <label htmlFor="delete-email">
            Type your email (<Email address={email} />) to confirm
          </label>
          <input
            id="delete-email"
            type="email"
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            required
          />
          <label htmlFor="delete-password">Your password</label>
          <input
            id="delete-password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
          <FormError error={error} testId="delete-account-error" />
          {deleted && <p role="status">Your account is deleted. Logging out…</p>}
          <p className="actions">
            <button type="submit" className="danger" disabled={busy || deleted}>
              Delete account
            </button>
            <button
              type="button"
              className="secondary"
              disabled={busy || deleted}
              onClick={() => {
                clear();
                setOpen(false);
              }}
            >
              Cancel
            </button>
          </p>
        </form>
      )}
    </section>
  );
}
