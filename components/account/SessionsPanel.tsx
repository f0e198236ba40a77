"use client";
// /profile: end every session of the account, this browser's too (a lost phone, a shared computer).
import { useMutation } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useTRPC } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";

export function SessionsPanel() {
  const trpc = useTRPC();
  const end = useMutation(trpc.account.logOutEverywhere.mutationOptions());
  const { error, busy, run } = useAction();

  const logOutEverywhere = () => {
    if (!window.confirm("Log out on every device and browser, this one too?")) return;
    void run(async () => {
      await end.mutateAsync();
      // This browser's session is already over; this clears its cookie and goes to /login.
      await signOut({ callbackUrl: "/login" });
    });
  };

  return (
    <section className="card" data-testid="sessions-panel">
      <h2>Sessions</h2>
      <p className="muted">Logs this account out on every device and browser at once, this one too.</p>
      <p className="actions">
        <button type="button" className="danger" onClick={logOutEverywhere} disabled={busy}>
          Log out everywhere
        </button>
      </p>
      <FormError error={error} />
    </section>
  );
}
