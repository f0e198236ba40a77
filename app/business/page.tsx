import { redirect } from "next/navigation";
import { BusinessPage as BusinessBody } from "@/components/business/BusinessPage";
import { sectionOf } from "@/components/business/sections";
import { libraryPageInput, reviewQueueInput } from "@/components/library/libraryPageInput";
import { sessionUserId } from "@/server/accounts/auth";
import { accountOf } from "@/server/accounts/users";
import { getQueryClient, HydrateClient, prefetch, trpc } from "@/trpc/server";

export const dynamic = "force-dynamic";

export default async function BusinessPage({ searchParams }: { searchParams: Promise<{ section?: string }> }) {
  const userId = await sessionUserId();
  if (!userId) redirect("/login?callbackUrl=/business");
  const user = await accountOf(userId);
  if (!user) redirect("/login");
  // The team's overview decides what the page shows; the section asked for (components/business/sections.ts) what else it needs at once.
  const overview = await getQueryClient().fetchQuery(trpc.team.overview.queryOptions());
  if (overview) {
    const section = sectionOf((await searchParams).section, overview.role);
    await Promise.all([
      (section === "library" || section === "create") &&
        prefetch(trpc.library.page.queryOptions(libraryPageInput("team"))),
      section === "review" && prefetch(trpc.library.page.queryOptions(reviewQueueInput())),
      section === "review" && prefetch(trpc.team.pendingChanges.queryOptions()),
      section === "members" && overview.role === "admin" && prefetch(trpc.invitations.pending.queryOptions()),
    ]);
  }
  return (
    <HydrateClient>
      <BusinessBody account={{ email: user.email, tier: user.tier }} />
    </HydrateClient>
  );
}
