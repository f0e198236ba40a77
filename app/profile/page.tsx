import { redirect } from "next/navigation";
import { ActivityPanel } from "@/components/activity/ActivityPanel";
import { DeleteAccountPanel } from "@/components/account/DeleteAccountPanel";
import { EmailPanel } from "@/components/account/EmailPanel";
import { PasswordPanel } from "@/components/account/PasswordPanel";
import { PersonalKeyPanel } from "@/components/keys/PersonalKeyPanel";
import { SessionsPanel } from "@/components/account/SessionsPanel";
import { TwoFactorPanel } from "@/components/account/TwoFactorPanel";
import { WebhooksPanel } from "@/components/webhooks/WebhooksPanel";
import { DomainsPanel } from "@/components/domains/DomainsPanel";
import { BrandKitsPanel } from "@/components/stylePresets/BrandKitsPanel";
import { sessionUserId } from "@/server/accounts/auth";
import { accountOf } from "@/server/accounts/users";
import { HydrateClient, prefetch, trpc } from "@/trpc/server";

export const dynamic = "force-dynamic";

export default async function ProfilePage() {
  const userId = await sessionUserId();
  if (!userId) redirect("/login?callbackUrl=/profile");
  const user = await accountOf(userId);
  if (!user) redirect("/login");
  await prefetch(trpc.keys.personal.queryOptions());
  return (
    <HydrateClient>
      <section className="card">
        <h1>Profile</h1>
        <dl className="facts">
          <dt>Name</dt>
          <dd>{user.name}</dd>
          <dt>Email</dt>
          <dd>
            {user.email}{" "}
            <span className={user.verified ? "badge active" : "badge draft"} data-testid="email-status">
              {user.verified ? "verified" : "not verified"}
            </span>
          </dd>
          <dt>Plan</dt>
          <dd data-testid="tier">{user.tier[0].toUpperCase() + user.tier.slice(1)}</dd>
        </dl>
      </section>
      <TwoFactorPanel />
      <PersonalKeyPanel />
      <WebhooksPanel scope="personal" />
      <DomainsPanel scope="personal" />
      <BrandKitsPanel scope="personal" />
      <PasswordPanel />
      <EmailPanel />
      <SessionsPanel />
      <ActivityPanel scope="account" />
      <DeleteAccountPanel email={user.email} />
    </HydrateClient>
  );
}
