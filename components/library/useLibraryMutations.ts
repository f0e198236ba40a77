// The library's changes as the pages make them, and what each makes stale.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LibraryKind } from "@/server/library/libraryItems";
import { useTRPC } from "@/trpc/react";

/**
 * What a change to a library makes stale: its pages, and for the team's also the review
 * queue on /business (a new code is a draft there; a draft edited or deleted leaves it).
 */
export function useLibraryChanged(libraryKind: LibraryKind) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries(trpc.library.page.queryFilter({ scope: libraryKind })),
      libraryKind === "team" && queryClient.invalidateQueries(trpc.team.overview.queryFilter()),
      // A writer's edit of a published code waits in the queue of changes.
      libraryKind === "team" && queryClient.invalidateQueries(trpc.team.pendingChanges.queryFilter()),
    ]);
  };
}

/** The library's changes, each reloading what it changed once it succeeded. */
export function useLibraryMutations(libraryKind: LibraryKind) {
  const trpc = useTRPC();
  const changed = { onSuccess: useLibraryChanged(libraryKind) };
  return {
    create: useMutation(trpc.library.create.mutationOptions(changed)),
    createMany: useMutation(trpc.library.createMany.mutationOptions(changed)),
    update: useMutation(trpc.library.update.mutationOptions(changed)),
    remove: useMutation(trpc.library.remove.mutationOptions(changed)),
    saveStyle: useMutation(trpc.library.saveStyle.mutationOptions(changed)),
  };
}
export type LibraryMutations = ReturnType<typeof useLibraryMutations>;
