// The account's changes on /profile (contract: "Accounts for real"): password and email changes
// (an email change is confirmed from the new address and can be undone from the old one) and
// ending sessions. Each change is one transaction with its activity entry; its mail is sent
// after the commit (server/platform/mail). Sign-up: signup.ts; password reset: passwordReset.ts.
import { z } from "zod";
import { recordActivity } from "../activity";
import { now } from "../platform/clock";
import { db, isUniqueViolation } from "../platform/db";
import { DomainError } from "../platform/errors";
import { randomString } from "../platform/ids";
import { appLink, sendMail } from "../platform/mail";
import { accountRules, take } from "../rate-limit";
import { issueToken, retireTokens, TOKEN_LIFETIME_SECONDS, useToken } from "./accountTokens";
import { hashPassword, verifyPassword } from "./passwords";
import { endSessions } from "./sessions";
import { checkSecondFactor } from "./twoFactor";
import { resetMail } from "./passwordReset";
import {
  passwordRule,
  emailRule,
  currentPasswordRule,
  hours,
  tooMany,
  spend,
  withLink,
  type Account,
  actorOf,
  accountOrThrow,
  claimNotice,
} from "./accountChecks";

export const changePasswordInput = z.object({ currentPassword: currentPasswordRule, newPassword: passwordRule });
/** `code`: the authentication code, asked when the account has two-factor authentication. */
export const changeEmailInput = z.object({
  email: emailRule,
  currentPassword: currentPasswordRule,
  code: z.string().max(100).optional(),
});

/**
 * The account's password again (and its authentication code when `code` is given, for an
 * account with two-factor authentication). Only wrong answers count, as failed log-ins do,
 * against the account's own limit: the caller holds its session.
 */
async function reauthenticate(
  user: { id: string; email: string; passwordHash: string; totpSecret: string | null; totpEnabledAt: Date | null },
  password: string,
  code?: string,
): Promise<void> {
  const limitKey = `password-check:${user.id}`;
  const asked = await take(limitKey, accountRules.passwordCheck, 0);
  if (!asked.allowed) throw tooMany(asked, "wrong passwords");
  const wrong = async (message: string) => {
    await take(limitKey, accountRules.passwordCheck);
    return new DomainError("invalid", message);
  };
  if (!(await verifyPassword(password, user.passwordHash))) throw await wrong("Current password is wrong");
  if (code === undefined || !user.totpEnabledAt) return;
  if (!code.trim()) throw new DomainError("invalid", "Enter your authentication code");
  if (!(await checkSecondFactor(user, code))) throw await wrong("Authentication code is not valid");
}

/** Changes the password, ends every session of the account, and returns the account for the browser's new session. */
export async function changePassword(userId: string, currentPassword: string, newPassword: string) {
  const user = await accountOrThrow(db, userId);
  await reauthenticate(user, currentPassword);
  const passwordHash = await hashPassword(newPassword);
  const sessionVersion = await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { passwordHash } });
    await recordActivity({ userId, actor: actorOf(user), action: "password.changed", target: user.email }, tx);
    return endSessions(userId, tx);
  });
  await sendMail({
    to: user.email,
    subject: "Your password was changed",
    paragraphs: [
      `Hello ${user.name},`,
      `The password of ${user.email} on QR Records was changed, and every other session was logged out.`,
      "If it was not you, reset your password at once.",
    ],
    action: { label: "Reset password", url: appLink("/forgot-password") },
  });
  return { id: user.id, email: user.email, name: user.name, sessionVersion };
}

/**
 * Asks to move the account to another address, with the password (and the authentication
 * code when two-factor is on): the new address confirms it with a link. An address that has
 * an account gets the same answer; its owner is told, and nothing changes.
 */
export async function requestEmailChange(userId: string, input: z.infer<typeof changeEmailInput>): Promise<void> {
  const user = await accountOrThrow(db, userId);
  const newEmail = input.email;
  if (newEmail === user.email) throw new DomainError("invalid", "This is already your email address");
  await reauthenticate(user, input.currentPassword, input.code ?? "");
  await spend(`email-change:${userId}`, accountRules.emailChange, "email changes");
  await recordActivity({ userId, actor: actorOf(user), action: "email.change_requested", target: newEmail });
  const taken = await db.user.findUnique({ where: { email: newEmail } });
  if (taken) return claimNotice(taken, "email_change");
  const token = await db.$transaction((tx) => issueToken(tx, userId, "change_email", newEmail));
  void sendMail({
    to: newEmail,
    subject: "Confirm your new email address",
    paragraphs: [
      `Hello ${user.name},`,
      `Confirm that QR Records should use ${newEmail} instead of ${user.email} for your account. The link works once, for ${hours(TOKEN_LIFETIME_SECONDS.change_email)}.`,
      "If you did not ask for this, ignore this mail.",
    ],
    action: { label: "Confirm new email address", url: appLink("/confirm-email", { token }) },
  });
}

const UNDO_DAYS = TOKEN_LIFETIME_SECONDS.undo_email_change / 86400;

/**
 * Opens the confirmation link from the new address: the account moves to it, and the old
 * address gets a link that undoes the change (undoEmailChange), valid for days.
 */
export async function confirmEmailChange(token: string, clientAddress: string): Promise<{ email: string }> {
  let change: { before: Account; email: string; undo: string };
  try {
    change = await withLink(clientAddress, () =>
      db.$transaction(async (tx) => {
        const used = await useToken(tx, "change_email", token);
        const user = await accountOrThrow(tx, used.userId);
        await tx.user.update({ where: { id: user.id }, data: { email: used.email, emailVerifiedAt: now() } });
        await recordActivity(
          {
            userId: user.id,
            actor: actorOf({ ...user, email: used.email }),
            action: "email.changed",
            target: used.email,
          },
          tx,
        );
        return {
          before: user,
          email: used.email,
          undo: await issueToken(tx, user.id, "undo_email_change", user.email),
        };
      }),
    );
  } catch (error) {
    // Taken since the change was asked for: the token is not spent (the transaction rolled back).
    if (isUniqueViolation(error)) throw new DomainError("conflict", "An account with this email already exists");
    throw error;
  }
  const { before, email, undo } = change;
  await sendMail({
    to: before.email,
    subject: "Your email address was changed",
    paragraphs: [
      `Hello ${before.name},`,
      `Your QR Records account now uses ${email} instead of this address.`,
      `If it was not you, undo the change with the link below (it works once, for ${UNDO_DAYS} days): the account comes back to this address, every session is logged out, its password stops working, and we send a link to set a new one here.`,
    ],
    action: { label: "Undo the change", url: appLink("/undo-email-change", { token: undo }) },
  });
  return { email };
}

/**
 * The undo link mailed to the old address: the account comes back to it, and its owner gets
 * control back: every session ends, the password (which whoever made the change knew) stops
 * working and a reset link goes to the restored address, the account's other pending links
 * are spent, and two-factor authentication turned on since the change is turned off.
 */
export async function undoEmailChange(token: string, clientAddress: string): Promise<{ email: string }> {
  const unusable = await hashPassword(randomString(43));
  let undone: { user: Account; reset: string };
  try {
    undone = await withLink(clientAddress, () =>
      db.$transaction(async (tx) => {
        const used = await useToken(tx, "undo_email_change", token);
        const user = await accountOrThrow(tx, used.userId);
        const secondFactorSince = user.totpEnabledAt && user.totpEnabledAt >= used.createdAt;
        for (const purpose of ["change_email", "undo_email_change", "reset_password", "verify_email"] as const)
          await retireTokens(tx, user.id, purpose);
        await tx.user.update({
          where: { id: user.id },
          data: {
            email: used.email,
            emailVerifiedAt: now(),
            passwordHash: unusable,
            ...(secondFactorSince ? { totpSecret: null, totpEnabledAt: null } : {}),
          },
        });
        if (secondFactorSince) await tx.recoveryCode.deleteMany({ where: { userId: user.id } });
        await endSessions(user.id, tx);
        const restored = { ...user, email: used.email };
        await recordActivity(
          {
            userId: user.id,
            actor: actorOf(restored),
            action: "email.change_undone",
            target: used.email,
            detail: { from: user.email, two_factor_turned_off: Boolean(secondFactorSince) },
          },
          tx,
        );
        return { user: restored, reset: await issueToken(tx, user.id, "reset_password", used.email) };
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError("conflict", "An account with this email already exists");
    throw error;
  }
  const { user, reset } = undone;
  await sendMail(
    resetMail(
      user,
      reset,
      `The change of your QR Records account's email address was undone: it uses ${user.email} again, and every session was logged out. Its password no longer works: set a new one with the link below (it works once, for ${hours(TOKEN_LIFETIME_SECONDS.reset_password)}).`,
    ),
  );
  return { email: user.email };
}

/** `Log out everywhere`: every session of the account ends, this browser's too. */
export async function logOutEverywhere(userId: string): Promise<void> {
  const user = await accountOrThrow(db, userId);
  await db.$transaction(async (tx) => {
    await endSessions(userId, tx);
    await recordActivity({ userId, actor: actorOf(user), action: "sessions.ended", target: user.email }, tx);
  });
}
