"use client";
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { KeyPanel } from "./KeyPanel";

/** The personal key on /profile (keys.personal, prefetched by the page). */
export function PersonalKeyPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: info } = useSuspenseQuery(trpc.keys.personal.queryOptions());
  const keyChanged = { onSuccess: () => queryClient.invalidateQueries(trpc.keys.personal.queryFilter()) };
  const generate = useMutation(trpc.keys.generatePersonal.mutationOptions(keyChanged));
  const revoke = useMutation(trpc.keys.revokePersonal.mutationOptions(keyChanged));
  const canUseApi = info.tier === "pro" || info.tier === "business";
  return (
    <KeyPanel
      title="Personal API key"
      intro={
        <>
          The key acts on your personal library through the API under <code>/v1</code>. Send it in the{" "}
          <code>x-api-key</code> header.
        </>
      }
      refusal={
        canUseApi ? null : (
          <>
            API access is part of the Pro and Business plans. Your plan is <strong>{info.tier}</strong>: upgrade to
            generate a key.
          </>
        )
      }
      current={info.key}
      generateLabel="Generate API key"
      revokeLabel="Revoke API key"
      generate={() => generate.mutateAsync()}
      revoke={() => revoke.mutateAsync()}
    />
  );
}
