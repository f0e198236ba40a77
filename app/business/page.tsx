import { redirect } from "next/navigation";
import { BusinessPanel, CreateTeamForm } from "@/components/BusinessPanel";
import { sessionUserId } from "@/server/auth";
import { db } from "@/server/db";
import { actorFor, libraryPage } from "@/server/domain/libraryItems";
import { teamOverview } from "@/server/domain/teams";

export const dynamic = "force-dynamic";

export default async function BusinessPage() {
  const userId = await sessionUserId();
  if (!userId) redirect("/login?callbackUrl=/business");
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) redirect("/login");
  const overview = await teamOverview(userId);
  if (overview) return <BusinessPanel initial={overview} initialLibrary={await libraryPage(await actorFor(userId, "team"), {})} />;
  return (
    <section className="card">
      <h1>Business</h1>
      <p>A team shares one library. Writers and admins each hold their own business key; whatever they add waits as a draft until an admin approves it.</p>
      {user.tier === "business" ? (
        <CreateTeamForm />
      ) : (
        <p data-testid="no-team">
          You are not in a team. Creating one takes the Business plan (yours is <strong>{user.tier}</strong>); or ask a team&apos;s admin to add{" "}
          <strong>{user.email}</strong>.
        </p>
      )}
    </section>
  );
}
