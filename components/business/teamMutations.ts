"use client";
// What the sections of /business share: the team's overview and its changes.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Role } from "@/server/teams/teams";
import { useTRPC, type RouterOutputs } from "@/trpc/react";
import { useLibraryChanged } from "../library/useLibraryMutations";

export type TeamOverview = NonNullable<RouterOutputs["team"]["overview"]>;

export const ROLES: Role[] = ["admin", "writer", "viewer"];

/** The team's changes, each reloading what it changed once it succeeded. */
export function useTeamMutations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overviewChanged = () => queryClient.invalidateQueries(trpc.team.overview.queryFilter());
  // The team library and its review queue (the overview) together.
  const libraryChanged = useLibraryChanged("team");
  const overviewOnly = { onSuccess: overviewChanged };
  const invitationsChanged = { onSuccess: () => queryClient.invalidateQueries(trpc.invitations.pending.queryFilter()) };
  const withLibrary = { onSuccess: libraryChanged };
  return {
    generateKey: useMutation(trpc.team.generateKey.mutationOptions(overviewOnly)),
    revokeKey: useMutation(trpc.team.revokeKey.mutationOptions(overviewOnly)),
    invite: useMutation(trpc.invitations.send.mutationOptions(invitationsChanged)),
    cancelInvitation: useMutation(trpc.invitations.cancel.mutationOptions(invitationsChanged)),
    makeOwner: useMutation(trpc.team.makeOwner.mutationOptions(overviewOnly)),
    // A role decides what the library lets its holder do; a member removed leaves it.
    setRole: useMutation(trpc.team.setRole.mutationOptions(withLibrary)),
    removeMember: useMutation(trpc.team.removeMember.mutationOptions(withLibrary)),
  };
}
export type TeamMutations = ReturnType<typeof useTeamMutations>;

/** What every section of the team page is given. */
export type Section = { overview: TeamOverview; mutations: TeamMutations };
