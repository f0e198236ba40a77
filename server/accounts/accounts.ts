// The account around the records (contract: "Accounts for real"): sign-up with a verified
// address, password reset, password and email changes, ending sessions. Each change is one
// transaction with its activity entry; its mail is sent after the commit (server/platform/mail).
// Nothing here tells a caller whether an address has an account (issue 37): sign-up and email
// change answer a taken address as a free one, and its owner gets a mail instead.
import { z } from "zod";
import { recordActivity } from "../activity";
import { now } from "../platform/clock";
import { db, isUniqueViolation, type Tx } from "../platform/db";
import { DomainError } from "../platform/errors";
import { randomString } from "../platform/ids";
import { appLink, sendMail, type Mail } from "../platform/mail";
import { accountRules, take, type Decision, type Rule } from "../rate-limit";
import { issueToken, retireTokens, TOKEN_LIFETIME_SECONDS, useToken } from "./accountTokens";
import { hashPassword, verifyPassword } from "./passwords";
import { endSessions } from "./sessions";
import { checkSecondFactor } from "./twoFactor";
import { insertUser, signupInput } from "./users";

const passwordRule = signupInput.shape.password;
const emailRule = signupInput.shape.email;

export const resetRequestInput = z.object({ email: z.string().max(320) });
export const tokenInput = z.object({
  token: z
    .string()
    .min(1, "This link is incomplete: open it from the mail again")
    .max(200, "This link has expired or was already used: ask for a new one"),
});
export const resetPasswordInput = tokenInput.extend({ password: passwordRule });
const currentPasswordRule = z.string().min(1, "Enter your current password").max(200);
export const changePasswordInput = z.object({ currentPassword: currentPasswordRule, newPassword: passwordRule });
/** `code`: the authentication code, asked when the account has two-factor authentication. */
export const changeEmailInput = z.object({
  email: emailRule,
  currentPassword: currentPasswordRule,
  code: z.string().max(100).optional(),
});

const hours = (seconds: number) => (seconds === 3600 ? "1 hour" : `${seconds / 3600} hours`);

const tooMany = (decision: Decision, what: string) =>
  new DomainError(
    "rate_limited",
    `Too many ${what}: try again in ${Math.ceil(decision.retryAfter / 60)} minute(s)`,
    undefined,
    { "Retry-After": String(decision.retryAfter) },
  );

/** Spends one token of a limit, or refuses with when to try again. */
async function spend(key: string, rule: Rule, what: string): Promise<void> {
  const decision = await take(key, rule);
  if (!decision.allowed) throw tooMany(decision, what);
}

/**
 * Uses a mailed link's token in `work`: only refused links count against the client address
 * (someone guessing tokens), so opening good links never runs into the limit.
 */
async function withLink<T>(clientAddress: string, work: () => Promise<T>): Promise<T> {
  const key = `link:${clientAddress}`;
  const asked = await take(key, accountRules.linkByAddress, 0);
  if (!asked.allowed) throw tooMany(asked, "refused links");
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && error.code === "invalid") await take(key, accountRules.linkByAddress);
    throw error;
  }
}

type Account = { id: string; email: string; name: string };
const actorOf = (user: Account) => ({ id: user.id, label: user.email });

async function accountOrThrow(client: Tx | typeof db, userId: string) {
  const user = await client.user.findUnique({ where: { id: userId } });
  if (!user || user.deletedAt) throw new DomainError("unauthenticated", "Log in first");
  return user;
}

// ---- verification ---------------------------------------------------------------------

const verificationMail = (user: Account, token: string) =>
  sendMail({
    to: user.email,
    subject: "Verify your email address",
    paragraphs: [
      `Hello ${user.name},`,
      `Confirm that ${user.email} is your address to start using QR Records' API keys. The link works for ${hours(TOKEN_LIFETIME_SECONDS.verify_email)}.`,
      "If you did not sign up, ignore this mail.",
    ],
    action: { label: "Verify email address", url: appLink("/verify-email", { token }) },
  });

/**
 * Tells the owner of a taken address that someone tried to sign up or move an account with
 * it (at most takenNotice's mails an hour; past that, silence, never a refusal), after the
 * answer. The caller learns nothing: the answer is the one a free address gets.
 */
async function claimNotice(owner: Account, via: "signup" | "email_change"): Promise<void> {
  await recordActivity({
    userId: owner.id,
    actor: null,
    action: "email.claim_attempted",
    target: owner.email,
    detail: { via },
  });
  if (!(await take(`taken-notice:${owner.email}`, accountRules.takenNotice)).allowed) return;
  const what = via === "signup" ? "create a new QR Records account with" : "move another QR Records account to";
  void sendMail({
    to: owner.email,
    subject: "Someone tried to use your email address",
    paragraphs: [
      `Hello ${owner.name},`,
      `Someone tried to ${what} ${owner.email}, which already belongs to your account. Nothing changed, and they were not told that this address has an account.`,
      `If it was you: log in with this address, or set a new password if you forgot it (${appLink("/forgot-password")}). If it was not you, there is nothing to do.`,
    ],
    action: { label: "Log in", url: appLink("/login") },
  });
}

/**
 * Sign-up from the pages: an unverified account, and the mail that verifies it. A taken
 * address gets the same answer, after the same work (the password is hashed either way), and
 * its owner a notice; sign-ups are limited per client address, new and taken alike.
 */
export async function signUp(input: z.infer<typeof signupInput>, clientAddress: string): Promise<void> {
  await spend(`signup:${clientAddress}`, accountRules.signupByAddress, "sign-ups");
  const passwordHash = await hashPassword(input.password);
  const taken = await db.user.findUnique({ where: { email: input.email } });
  if (!taken) {
    try {
      const { user, token } = await db.$transaction(async (tx) => {
        const user = await insertUser({ email: input.email, name: input.name, passwordHash }, "free", null, tx);
        return { user, token: await issueToken(tx, user.id, "verify_email", user.email) };
      });
      void verificationMail(user, token);
      return;
    } catch (error) {
      // Taken between the read and the insert: answered as below.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  const owner = taken ?? (await db.user.findUnique({ where: { email: input.email } }));
  if (owner && !owner.deletedAt) await claimNotice(owner, "signup");
}

/** Another verification mail (the `Resend verification email` button). */
export async function resendVerification(userId: string): Promise<void> {
  const user = await accountOrThrow(db, userId);
  if (user.emailVerifiedAt) throw new DomainError("conflict", "Your email address is already verified");
  await spend(`verify-resend:${userId}`, accountRules.resendVerification, "verification mails");
  const token = await db.$transaction((tx) => issueToken(tx, user.id, "verify_email", user.email));
  await verificationMail(user, token);
}

/** Opens a verification link: the address it was sent to is verified (if it is still the account's). */
export async function verifyEmail(token: string, clientAddress: string): Promise<{ email: string }> {
  return withLink(clientAddress, () =>
    db.$transaction(async (tx) => {
      const used = await useToken(tx, "verify_email", token);
      const user = await accountOrThrow(tx, used.userId);
      if (user.email !== used.email)
        throw new DomainError("invalid", "This link has expired or was already used: ask for a new one");
      if (!user.emailVerifiedAt) {
        await tx.user.update({ where: { id: user.id }, data: { emailVerifiedAt: now() } });
        await recordActivity(
          { userId: user.id, actor: actorOf(user), action: "email.verified", target: user.email },
          tx,
        );
      }
      return { email: user.email };
    }),
  );
}

// ---- password reset -------------------------------------------------------------------

/**
 * `/forgot-password`: mails a reset link if the account exists. The caller learns nothing
 * either way: the same answer, the limits counted for unknown addresses too, and the mail
 * sent after the answer (an SMTP conversation would tell by its time).
 */
export async function requestPasswordReset(typed: string, clientAddress: string): Promise<void> {
  const email = typed.trim().toLowerCase();
  await spend(`reset:address:${clientAddress}`, accountRules.resetByAddress, "reset requests");
  await spend(`reset:account:${email}`, accountRules.resetByAccount, "reset requests");
  const user = email ? await db.user.findUnique({ where: { email } }) : null;
  if (!user || user.deletedAt) return;
  const token = await db.$transaction((tx) => issueToken(tx, user.id, "reset_password", user.email));
  void sendMail(
    resetMail(
      user,
      token,
      `Someone asked to reset the password of ${user.email} on QR Records. The link works once, for ${hours(TOKEN_LIFETIME_SECONDS.reset_password)}.`,
      "If it was not you, ignore this mail: your password stays as it is.",
    ),
  );
}

const resetMail = (user: Account, token: string, ...why: string[]): Mail => ({
  to: user.email,
  subject: "Reset your password",
  paragraphs: [`Hello ${user.name},`, ...why],
  action: { label: "Set a new password", url: appLink("/reset-password", { token }) },
});

/** `/reset-password`: a new password, and every session of the account ended. */
export async function resetPassword(token: string, password: string, clientAddress: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await withLink(clientAddress, () =>
    db.$transaction(async (tx) => {
      const used = await useToken(tx, "reset_password", token);
      const user = await accountOrThrow(tx, used.userId);
      await retireTokens(tx, user.id, "reset_password");
      // The link reached the account's address: that verifies it too.
      await tx.user.update({
        where: { id: user.id },
        data: { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now() },
      });
      await endSessions(user.id, tx);
      await recordActivity({ userId: user.id, actor: actorOf(user), action: "password.reset", target: user.email }, tx);
    }),
  );
}

// ---- /profile -------------------------------------------------------------------------

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
