// Two-factor authentication (contract: "Accounts for real"): TOTP (RFC 6238: SHA-1, 6 digits,
// 30 s, the previous and next step accepted) with otplib, and 10 single-use recovery codes.
// The secret must be read back to check codes, so it is stored encrypted (AES-256-GCM under a
// key derived from NEXTAUTH_SECRET), never hashed and never logged; recovery codes are stored
// as SHA-256 hashes and shown once. A code accepted at log-in cannot be used again (its time
// step is spent in the rate-limit store, shared through Redis).
import { generateSecret, generateURI, verify } from "otplib";
import { actorOf, recordActivity } from "../activity";
import { now } from "../platform/clock";
import { db } from "../platform/db";
import { DomainError, invalid } from "../platform/errors";
import { randomString, timeOrderedId } from "../platform/ids";
import { logError } from "../platform/log";
import { loginRules, take } from "../rate-limit";
import { seal, unseal } from "../platform/secrets";
import { hashToken } from "./accountTokens";
import { verifyPassword } from "./passwords";
import { renderSvg } from "../images/qrImage";

const ISSUER = "QR Records";
const RECOVERY_CODES = 10;
/** One step either side of now (30 s each), for clocks that drift and codes typed slowly. */
const TOLERANCE_SECONDS = 30;
const CODE_PATTERN = /^\d{6}$/;
/** A time step spent at log-in stays spent for longer than the steps the tolerance accepts. */
const spentStepRule = { capacity: 1, refillPerSecond: 1 / 120, dailyQuota: 0 };

// ---- the stored secret ------------------------------------------------------------------

const PURPOSE = "totp-secret";

export const sealSecret = (secret: string): string => seal(PURPOSE, secret);

/** The secret, or null when it cannot be opened (sealed under another NEXTAUTH_SECRET): then
 * no app code matches, and the account logs in with a recovery code. */
function openSecret(stored: string): string | null {
  try {
    return unseal(PURPOSE, stored);
  } catch (error) {
    logError("two_factor.secret_unreadable", {}, error);
    return null;
  }
}

/** The time step `code` belongs to, if it is valid for the sealed secret now (± one step). */
async function totpStep(sealedSecret: string | null, code: string): Promise<number | null> {
  const secret = sealedSecret && openSecret(sealedSecret);
  if (!secret || !CODE_PATTERN.test(code)) return null;
  const result = await verify({ secret, token: code, epochTolerance: TOLERANCE_SECONDS });
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

// ---- recovery codes ---------------------------------------------------------------------

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
/** Case, spaces and dashes do not matter when a recovery code is typed. */
const normalized = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");
const recoveryHash = (code: string) => hashToken(normalized(code));
const newRecoveryCode = () => {
  const raw = randomString(10, RECOVERY_ALPHABET);
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
};

// ---- the profile's actions --------------------------------------------------------------

async function account(userId: string) {
  return db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { id: true, email: true, passwordHash: true, totpSecret: true, totpEnabledAt: true },
  });
}

/** What /profile shows. */
export async function twoFactorStatus(userId: string): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
  const user = await account(userId);
  const left = user.totpEnabledAt ? await db.recoveryCode.count({ where: { userId, usedAt: null } }) : 0;
  return { enabled: user.totpEnabledAt !== null, recoveryCodesLeft: left };
}

/** A new secret, kept (sealed) until confirmed: as text, as an otpauth:// URI and as a QR code (SVG). */
export async function startTwoFactor(userId: string): Promise<{ secret: string; uri: string; qrSvg: string }> {
  const user = await account(userId);
  if (user.totpEnabledAt) throw new DomainError("conflict", "Two-factor authentication is already on");
  const secret = generateSecret();
  await db.user.update({ where: { id: userId }, data: { totpSecret: sealSecret(secret) } });
  const uri = generateURI({ issuer: ISSUER, label: user.email, secret });
  return { secret, uri, qrSvg: await renderSvg(uri, {}, 240) };
}

/** Wrong codes and passwords on the profile are limited like log-ins, per account. */
async function limited(userId: string, check: () => Promise<boolean>, message: string): Promise<void> {
  const key = `2fa:account:${userId}`;
  const asked = await take(key, loginRules.account, 0);
  if (!asked.allowed)
    throw new DomainError(
      "rate_limited",
      `Too many wrong attempts: try again in ${Math.ceil(asked.retryAfter / 60)} minute(s)`,
    );
  if (await check()) return;
  await take(key, loginRules.account);
  throw invalid(message);
}

/** Turns two-factor on with a code of the new secret; returns the 10 recovery codes, shown this once. */
export async function confirmTwoFactor(userId: string, code: string): Promise<{ recoveryCodes: string[] }> {
  const user = await account(userId);
  if (user.totpEnabledAt) throw new DomainError("conflict", "Two-factor authentication is already on");
  if (!user.totpSecret) throw new DomainError("conflict", "Start again: press Enable two-factor authentication");
  const sealed = user.totpSecret;
  await limited(
    userId,
    async () => (await totpStep(sealed, code.trim())) !== null,
    "Authentication code is not valid: enter the 6 digits your app shows now",
  );
  const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const actor = { id: userId, label: user.email };
  await db.$transaction(async (tx) => {
    // Only the secret that was shown: a second Enable meanwhile made this one stale.
    const { count } = await tx.user.updateMany({
      where: { id: userId, totpSecret: sealed, totpEnabledAt: null },
      data: { totpEnabledAt: now() },
    });
    if (count !== 1) throw new DomainError("conflict", "Start again: press Enable two-factor authentication");
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await tx.recoveryCode.createMany({
      data: recoveryCodes.map((c) => ({ id: timeOrderedId("rc"), userId, codeHash: recoveryHash(c) })),
    });
    await recordActivity({ userId, actor, action: "two_factor.enabled" }, tx);
  });
  return { recoveryCodes };
}

/** Turns two-factor off; the account's password is asked again. */
export async function disableTwoFactor(userId: string, password: string): Promise<void> {
  const user = await account(userId);
  if (!user.totpEnabledAt) throw new DomainError("conflict", "Two-factor authentication is not on");
  await limited(userId, () => verifyPassword(password, user.passwordHash), "Password is not correct");
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { totpSecret: null, totpEnabledAt: null } });
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await recordActivity({ userId, actor: await actorOf(userId, tx), action: "two_factor.disabled" }, tx);
  });
}

// ---- log-in -----------------------------------------------------------------------------

/**
 * The second factor at log-in: a code of the account's app (once: its time step is then spent)
 * or an unused recovery code (then used up, and logged). False for anything else.
 */
export async function checkSecondFactor(
  user: { id: string; email: string; totpSecret: string | null },
  code: string,
): Promise<boolean> {
  const typed = code.trim();
  if (CODE_PATTERN.test(typed)) {
    const step = await totpStep(user.totpSecret, typed);
    return step !== null && (await take(`2fa:step:${user.id}:${step}`, spentStepRule)).allowed;
  }
  return db.$transaction(async (tx) => {
    const { count } = await tx.recoveryCode.updateMany({
      where: { userId: user.id, codeHash: recoveryHash(typed), usedAt: null },
      data: { usedAt: now() },
    });
    if (count !== 1) return false;
    const left = await tx.recoveryCode.count({ where: { userId: user.id, usedAt: null } });
    await recordActivity(
      { userId: user.id, actor: { id: user.id, label: user.email }, action: "recovery_code.used", detail: { left } },
      tx,
    );
    return true;
  });
}
