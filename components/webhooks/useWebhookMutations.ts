"use client";
// The webhook endpoints' changes as the panel makes them: each reloads every webhooks query
// (the list and the open delivery logs) once it succeeded.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";

export type Scope = "personal" | "team";

export function useWebhookMutations(scope: Scope) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const changed = { onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() }) };
  return {
    create: useMutation(trpc.webhooks.create.mutationOptions(changed)),
    update: useMutation(trpc.webhooks.update.mutationOptions(changed)),
    remove: useMutation(trpc.webhooks.remove.mutationOptions(changed)),
    test: useMutation(trpc.webhooks.test.mutationOptions(changed)),
    resend: useMutation(trpc.webhooks.resend.mutationOptions(changed)),
    scope,
  };
}
export type Mutations = ReturnType<typeof useWebhookMutations>;
