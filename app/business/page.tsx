import { redirect } from "next/navigation";
import { BusinessPage as BusinessBody } from "@/components/BusinessPanel";
import { libraryPageInput, reviewQueueInput } from "@/components/libraryPageInput";
import { sessionUserId } from "@/server/auth";
import { accountOf } from "@/server/domain/users";
import { getQueryClient, HydrateClient, prefetch, trpc } from "@/trpc/server";

export const dynamic = "force-dynamic";

export default async function BusinessPage() {
  const userId = await sessionUserId();
  if (!userId) redirect("/login?callbackUrl=/business");
  const user = await accountOf(userId);
  if (!user) redirect("/login");
  // The team's overview decides what the page shows; a member sees the review queue and the team library too.
  const overview = await getQueryClient().fetchQuery(trpc.team.overview.queryOptions());
  if (overview) {
    await Promise.all([
      prefetch(trpc.library.page.queryOptions(libraryPageInput("team"))),
      prefetch(trpc.library.page.queryOptions(reviewQueueInput())),
      prefetch(trpc.team.pendingChanges.queryOptions()),
      overview.role === "admin" ? prefetch(trpc.invitations.pending.queryOptions()) : null,
    ]);
  }
  return (
    <HydrateClient>
      <BusinessBody account={{ email: user.email, tier: user.tier }} />
    </HydrateClient>
  );
}
