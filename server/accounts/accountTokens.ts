// Single-use tokens mailed to an account (contract: "Accounts for real"): a random value in
// the link, only its SHA-256 in AccountToken, used at most once and before its expiry
// (server/platform/clock.ts's now(), which tests move with CLOCK_OFFSET_SECONDS).
import type { AccountToken } from "../generated/sqlite/client";
import { after, now } from "../platform/clock";
import { db, type Tx } from "../platform/db";
import { DomainError } from "../platform/errors";
import { randomString, timeOrderedId } from "../platform/ids";
import { hashKey } from "../keys/apiKeys";

export type TokenPurpose = "verify_email" | "reset_password" | "change_email" | "undo_email_change";

/** How long a mailed link works. */
export const TOKEN_LIFETIME_SECONDS: Record<TokenPurpose, number> = {
  verify_email: 24 * 3600,
  reset_password: 3600,
  change_email: 24 * 3600,
  // Mailed to the old address once a change is confirmed: its owner may read mail rarely.
  undo_email_change: 7 * 24 * 3600,
};

/** What is stored of a mailed token, an invitation link or a recovery code: the SHA-256 an API key gets. */
export const hashToken = hashKey;

/** A new token for the account; `email` is the address the mail goes to. Returns the raw token, for the link only. */
export async function issueToken(tx: Tx, userId: string, purpose: TokenPurpose, email: string): Promise<string> {
  const token = randomString(43);
  const createdAt = now();
  const expiresAt = after(TOKEN_LIFETIME_SECONDS[purpose], createdAt);
  await tx.accountToken.create({
    data: { id: timeOrderedId("tok"), userId, purpose, email, tokenHash: hashToken(token), expiresAt, createdAt },
  });
  return token;
}

/**
 * Uses a token: marks it used in `tx` (the transaction of the change it allows) and returns
 * it. Unknown, used and expired tokens get one answer, so a link tells nothing about others.
 */
export async function useToken(tx: Tx, purpose: TokenPurpose, token: string): Promise<AccountToken> {
  const tokenHash = hashToken(token);
  const at = now();
  // One statement decides, so two uses at once cannot both pass.
  const { count } = await tx.accountToken.updateMany({
    where: { tokenHash, purpose, usedAt: null, expiresAt: { gt: at } },
    data: { usedAt: at },
  });
  if (count !== 1) throw new DomainError("invalid", "This link has expired or was already used: ask for a new one");
  return tx.accountToken.findUniqueOrThrow({ where: { tokenHash } });
}

/**
 * Whether a mailed link would still work, without using it: its page says at once that it is
 * used or expired instead of failing after the form was filled in.
 */
export async function tokenUsable(purpose: TokenPurpose, token: string): Promise<boolean> {
  // Cheap first: every token we mail has the same length.
  if (token.length !== 43) return false;
  const found = await db.accountToken.findFirst({
    where: { tokenHash: hashToken(token), purpose, usedAt: null, expiresAt: { gt: now() } },
    select: { id: true },
  });
  return found !== null;
}

/** Makes the account's other unused tokens of `purpose` unusable (a reset link once the password was reset). */
export async function retireTokens(tx: Tx, userId: string, purpose: TokenPurpose): Promise<void> {
  await tx.accountToken.updateMany({ where: { userId, purpose, usedAt: null }, data: { usedAt: now() } });
}
