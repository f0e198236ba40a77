"use client";
// A dynamic code's form in the library (its edit form, its rules): each saves a part of the code
// through the same PATCH, with the version the form opened, so a save after another tab's is
// refused (README, "Stale saves"), not the page's refetched version.
import { useState } from "react";
import type { LibraryKind } from "@/server/library/libraryItems";
import type { RouterInputs, RouterOutputs } from "@/trpc/react";
import type { LibraryMutations } from "./useLibraryMutations";
import { useAction } from "../ui/useAction";

type LibraryItem = RouterOutputs["library"]["page"]["items"][number];
/** The fields a form changes; the code is the item's. */
type Patch = Omit<RouterInputs["library"]["update"]["patch"], "code">;

/** `save(patch)`: the PATCH, then `done`; its error is the form's, cleared by `clear`. */
export function useCodePatch({
  libraryKind,
  mutations,
  item,
  done,
}: {
  libraryKind: LibraryKind;
  mutations: LibraryMutations;
  item: LibraryItem;
  done: () => void;
}) {
  const [loadedAt] = useState(item.updatedAt);
  const { error, busy: saving, run, clear } = useAction();
  const save = (patch: Patch) =>
    void run(async () => {
      await mutations.update.mutateAsync({
        scope: libraryKind,
        updatedAt: loadedAt,
        patch: { code: item.id, ...patch },
      });
      done();
    });
  return { error, saving, clear, save };
}
