"use client";
// The verification notice's action (components/account/VerifyNotice.tsx): the page's one way to send the mail again.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";

export function ResendVerification() {
  const trpc = useTRPC();
  const resend = useMutation(trpc.account.resendVerification.mutationOptions());
  const { error, busy, run } = useAction();
  const [sent, setSent] = useState(false);
  return (
    <div className="panel">
      <p className="actions tight">
        <button
          type="button"
          className="secondary"
          disabled={busy}
          onClick={() =>
            run(async () => {
              await resend.mutateAsync();
              setSent(true);
            })
          }
        >
          Resend verification email
        </button>
      </p>
      {sent && !error && (
        <p className="notice" role="status">
          Sent: open the link in the mail to verify your address.
        </p>
      )}
      <FormError error={error} />
    </div>
  );
}
