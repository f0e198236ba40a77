import { redirect } from "next/navigation";
import { PersonalKeyPanel } from "@/components/PersonalKeyPanel";
import { liveKey } from "@/server/domain/apiKeys";
import { sessionUserId } from "@/server/auth";
import { db } from "@/server/db";

export const dynamic = "force-dynamic";

export default async function ProfilePage() {
  const userId = await sessionUserId();
  if (!userId) redirect("/login?callbackUrl=/profile");
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) redirect("/login");
  return (
    <>
      <section className="card">
        <h1>Profile</h1>
        <dl className="facts">
          <dt>Name</dt>
          <dd>{user.name}</dd>
          <dt>Email</dt>
          <dd>{user.email}</dd>
          <dt>Plan</dt>
          <dd data-testid="tier">{user.tier[0].toUpperCase() + user.tier.slice(1)}</dd>
        </dl>
      </section>
      <PersonalKeyPanel initial={{ tier: user.tier, key: await liveKey(user.id, "personal") }} />
    </>
  );
}
