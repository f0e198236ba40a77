// Accounts: sign-up, credential checks, tiers.
import { z } from "zod";
import { db, type Tx } from "../platform/db";
import { DomainError, invalid } from "../platform/errors";
import { timeOrderedId } from "../platform/ids";
import { hashPassword, verifyPassword } from "./passwords";

export const TIERS = ["free", "pro", "business"] as const;
export type Tier = (typeof TIERS)[number];
export const hasApiAccess = (tier: string) => tier === "pro" || tier === "business";

export const signupInput = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: "Enter a valid email address" })),
  password: z
    .string()
    .min(8, "The password must be at least 8 characters")
    .max(200, "The password must be at most 200 characters"),
  name: z.string().trim().min(1, "Enter your name").max(100, "The name must be at most 100 characters"),
});

/**
 * `input` as the edge validated it (signupInput). The address is unverified unless `verified`
 * says it was confirmed some other way (seeded demo accounts, the tests' fixtures); sign-up
 * from the pages goes through server/accounts/accounts.ts's signUp, which mails the link.
 */
export async function createUser(
  { email, password, name }: z.infer<typeof signupInput>,
  tier: Tier = "free",
  options: { verified?: boolean } = {},
) {
  if (await db.user.findUnique({ where: { email } })) {
    throw new DomainError("conflict", "An account with this email already exists");
  }
  return insertUser(
    { email, name, passwordHash: await hashPassword(password) },
    tier,
    options.verified ? new Date() : null,
  );
}

/** The row of a new account (its password already hashed); a taken address fails as a unique violation. */
export const insertUser = (
  fields: { email: string; name: string; passwordHash: string },
  tier: Tier = "free",
  emailVerifiedAt: Date | null = null,
  client: Tx | typeof db = db,
) => client.user.create({ data: { id: timeOrderedId("usr"), ...fields, tier, emailVerifiedAt } });

/** What the pages show of an account, or null when there is no such account. */
export async function accountOf(
  userId: string,
): Promise<{ id: string; email: string; name: string; tier: Tier; verified: boolean } | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, name: true, tier: true, emailVerifiedAt: true },
  });
  return (
    user && {
      id: user.id,
      email: user.email,
      name: user.name,
      tier: user.tier as Tier,
      verified: user.emailVerifiedAt !== null,
    }
  );
}

/** The account if the password matches, else null (same answer for unknown email and wrong password). */
export async function checkCredentials(email: string, password: string) {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!user) {
    await hashPassword(password); // spend the same time as a real check
    return null;
  }
  return (await verifyPassword(password, user.passwordHash)) ? user : null;
}

export async function setTier(email: string, tier: string) {
  if (!TIERS.includes(tier as Tier)) throw invalid(`tier must be one of ${TIERS.join(", ")}`);
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!user) throw new DomainError("not_found", `No account with email ${email}`);
  return db.user.update({ where: { id: user.id }, data: { tier } });
}
