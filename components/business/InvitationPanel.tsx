"use client";
// /invite/<token>: the Accept button of the logged-in invitee, or the way to the right account.
import { useMutation } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/trpc/react";
import { FormError } from "../ui/FormError";
import { useAction } from "../ui/useAction";

export function AcceptInvitation({ token }: { token: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const accept = useMutation(trpc.invitations.accept.mutationOptions());
  const { error, busy, run } = useAction();
  // Once joined, the button stays disabled while /business loads.
  const [joined, setJoined] = useState(false);
  return (
    <>
      <p className="actions">
        <button
          type="button"
          disabled={busy || joined}
          onClick={() =>
            void run(async () => {
              await accept.mutateAsync({ token });
              setJoined(true);
              router.push("/business");
              router.refresh();
            })
          }
        >
          Accept invitation
        </button>
      </p>
      <FormError error={error} testId="invitation-error" />
    </>
  );
}

/** Logs out and comes back to the log-in form for the invited address, then to the invitation. */
export function SwitchAccount({ email, back }: { email: string; back: string }) {
  return (
    <p className="actions">
      <button
        type="button"
        className="secondary"
        onClick={() => void signOut({ callbackUrl: `/login?${new URLSearchParams({ email, callbackUrl: back })}` })}
      >
        Log out and log in as {email}
      </button>
    </p>
  );
}
