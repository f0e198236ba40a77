// The demo accounts of the contract ("Web pages"), all with password demo-password.
import { db } from "../platform/db";
import { timeOrderedId } from "../platform/ids";
import { createUser, type Tier } from "./users";

export const DEMO_PASSWORD = "demo-password";

const ACCOUNTS: {
  email: string;
  name: string;
  tier: Tier;
  team?: { name: string; role: "admin" | "writer" | "viewer" };
}[] = [
  { email: "free@example.com", name: "Free Demo", tier: "free" },
  { email: "pro@example.com", name: "Pro Demo", tier: "pro" },
  { email: "owner@example.com", name: "Owner Demo", tier: "business", team: { name: "Demo Team", role: "admin" } },
  { email: "writer@example.com", name: "Writer Demo", tier: "free", team: { name: "Demo Team", role: "writer" } },
  { email: "viewer@example.com", name: "Viewer Demo", tier: "free", team: { name: "Demo Team", role: "viewer" } },
  { email: "other@example.com", name: "Other Demo", tier: "business", team: { name: "Other Team", role: "admin" } },
];

/** Creates whichever demo accounts and teams are missing; returns the table to print. */
export async function seedDemo(): Promise<{ email: string; tier: string; team: string }[]> {
  for (const account of ACCOUNTS) {
    const user =
      (await db.user.findUnique({ where: { email: account.email } })) ??
      (await createUser({ email: account.email, password: DEMO_PASSWORD, name: account.name }, account.tier, {
        verified: true,
      }));
    // Demo accounts made before verification existed are verified too.
    if (!user.emailVerifiedAt) await db.user.update({ where: { id: user.id }, data: { emailVerifiedAt: new Date() } });
    if (!account.team || (await db.membership.findUnique({ where: { userId: user.id } }))) continue;
    // The admin listed first creates the team; later members join it.
    const team =
      (await db.team.findFirst({ where: { name: account.team.name } })) ??
      (await db.team.create({ data: { id: timeOrderedId("team"), name: account.team.name, ownerId: user.id } }));
    await db.membership.create({
      data: { id: timeOrderedId("mem"), teamId: team.id, userId: user.id, role: account.team.role },
    });
  }
  return ACCOUNTS.map((a) => ({
    email: a.email,
    tier: a.tier,
    team: a.team ? `${a.team.role} of ${a.team.name}` : "",
  }));
}
