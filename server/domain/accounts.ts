// The account around the records (contract: "Accounts for real"): sign-up with a verified
// address, password reset, password and email changes, ending sessions. Each change is one
// transaction with its activity entry; its mail is sent after the commit (server/mail).
import { z } from "zod";
import { recordActivity } from "../activity";
import { now } from "../clock";
import { db, isUniqueViolation, type Tx } from "../db";
import { DomainError } from "../errors";
import { appLink, sendMail } from "../mail";
import { accountRules, take, type Decision, type Rule } from "../rate-limit";
import { issueToken, retireTokens, TOKEN_LIFETIME_SECONDS, useToken } from "./accountTokens";
import { hashPassword, verifyPassword } from "./passwords";
import { endSessions } from "./sessions";
import { createUser, signupInput } from "./users";

const passwordRule = signupInput.shape.password;
const emailRule = signupInput.shape.email;

export const resetRequestInput = z.object({ email: z.string().max(320) });
export const tokenInput = z.object({ token: z.string().min(1, "This link is incomplete: open it from the mail again").max(200, "This link has expired or was already used: ask for a new one") });
export const resetPasswordInput = tokenInput.extend({ password: passwordRule });
export const changePasswordInput = z.object({ currentPassword: z.string().min(1, "Enter your current password").max(200), newPassword: passwordRule });
export const changeEmailInput = z.object({ email: emailRule });

const hours = (seconds: number) => (seconds === 3600 ? "1 hour" : `${seconds / 3600} hours`);

const tooMany = (decision: Decision, what: string) =>
  new DomainError("rate_limited", `Too many ${what}: try again in ${Math.ceil(decision.retryAfter / 60)} minute(s)`, undefined, { "Retry-After": String(decision.retryAfter) });

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
    paragraphs: [`Hello ${user.name},`, `Confirm that ${user.email} is your address to start using QR Records' API keys. The link works for ${hours(TOKEN_LIFETIME_SECONDS.verify_email)}.`, "If you did not sign up, ignore this mail."],
    action: { label: "Verify email address", url: appLink("/verify-email", { token }) },
  });

/** Sign-up from the pages: an unverified account, and the mail that verifies it. */
export async function signUp(input: z.infer<typeof signupInput>) {
  const user = await createUser(input);
  const token = await db.$transaction((tx) => issueToken(tx, user.id, "verify_email", user.email));
  await verificationMail(user, token);
  return user;
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
  return withLink(clientAddress, () => db.$transaction(async (tx) => {
    const used = await useToken(tx, "verify_email", token);
    const user = await accountOrThrow(tx, used.userId);
    if (user.email !== used.email) throw new DomainError("invalid", "This link has expired or was already used: ask for a new one");
    if (!user.emailVerifiedAt) {
      await tx.user.update({ where: { id: user.id }, data: { emailVerifiedAt: now() } });
      await recordActivity({ userId: user.id, actor: actorOf(user), action: "email.verified", target: user.email }, tx);
    }
    return { email: user.email };
  }));
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
  void sendMail({
    to: user.email,
    subject: "Reset your password",
    paragraphs: [`Hello ${user.name},`, `Someone asked to reset the password of ${user.email} on QR Records. The link works once, for ${hours(TOKEN_LIFETIME_SECONDS.reset_password)}.`, "If it was not you, ignore this mail: your password stays as it is."],
    action: { label: "Set a new password", url: appLink("/reset-password", { token }) },
  });
}

/** `/reset-password`: a new password, and every session of the account ended. */
export async function resetPassword(token: string, password: string, clientAddress: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await withLink(clientAddress, () => db.$transaction(async (tx) => {
    const used = await useToken(tx, "reset_password", token);
    const user = await accountOrThrow(tx, used.userId);
    await retireTokens(tx, user.id, "reset_password");
    // The link reached the account's address: that verifies it too.
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now() } });
    await endSessions(user.id, tx);
    await recordActivity({ userId: user.id, actor: actorOf(user), action: "password.reset", target: user.email }, tx);
  }));
}

// ---- /profile -------------------------------------------------------------------------

/** Changes the password, ends every session of the account, and returns the account for the browser's new session. */
export async function changePassword(userId: string, currentPassword: string, newPassword: string) {
  const user = await accountOrThrow(db, userId);
  // Only wrong passwords count, as failed log-ins do.
  const limitKey = `password-check:${userId}`;
  const asked = await take(limitKey, accountRules.passwordCheck, 0);
  if (!asked.allowed) throw tooMany(asked, "wrong passwords");
  if (!(await verifyPassword(currentPassword, user.passwordHash))) {
    await take(limitKey, accountRules.passwordCheck);
    throw new DomainError("invalid", "Current password is wrong");
  }
  const passwordHash = await hashPassword(newPassword);
  const sessionVersion = await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { passwordHash } });
    await recordActivity({ userId, actor: actorOf(user), action: "password.changed", target: user.email }, tx);
    return endSessions(userId, tx);
  });
  await sendMail({
    to: user.email,
    subject: "Your password was changed",
    paragraphs: [`Hello ${user.name},`, `The password of ${user.email} on QR Records was changed, and every other session was logged out.`, "If it was not you, reset your password at once."],
    action: { label: "Reset password", url: appLink("/forgot-password") },
  });
  return { id: user.id, email: user.email, name: user.name, sessionVersion };
}

/** Asks to move the account to another address: the new address confirms it with a link. */
export async function requestEmailChange(userId: string, newEmail: string): Promise<void> {
  const user = await accountOrThrow(db, userId);
  if (newEmail === user.email) throw new DomainError("invalid", "This is already your email address");
  await spend(`email-change:${userId}`, accountRules.emailChange, "email changes");
  if (await db.user.findUnique({ where: { email: newEmail } })) throw new DomainError("conflict", "An account with this email already exists");
  const token = await db.$transaction((tx) => issueToken(tx, userId, "change_email", newEmail));
  await sendMail({
    to: newEmail,
    subject: "Confirm your new email address",
    paragraphs: [`Hello ${user.name},`, `Confirm that QR Records should use ${newEmail} instead of ${user.email} for your account. The link works once, for ${hours(TOKEN_LIFETIME_SECONDS.change_email)}.`, "If you did not ask for this, ignore this mail."],
    action: { label: "Confirm new email address", url: appLink("/confirm-email", { token }) },
  });
}

/** Opens the confirmation link from the new address: the account moves to it, and the old address is told. */
export async function confirmEmailChange(token: string, clientAddress: string): Promise<{ email: string }> {
  let change: { before: Account; email: string };
  try {
    change = await withLink(clientAddress, () => db.$transaction(async (tx) => {
      const used = await useToken(tx, "change_email", token);
      const user = await accountOrThrow(tx, used.userId);
      await tx.user.update({ where: { id: user.id }, data: { email: used.email, emailVerifiedAt: now() } });
      await recordActivity({ userId: user.id, actor: actorOf({ ...user, email: used.email }), action: "email.changed", target: used.email }, tx);
      return { before: user, email: used.email };
    }));
  } catch (error) {
    // Taken since the change was asked for: the token is not spent (the transaction rolled back).
    if (isUniqueViolation(error)) throw new DomainError("conflict", "An account with this email already exists");
    throw error;
  }
  const { before, email } = change;
  await sendMail({
    to: before.email,
    subject: "Your email address was changed",
    paragraphs: [`Hello ${before.name},`, `Your QR Records account now uses ${email} instead of this address.`, "If it was not you, someone else holds your account: reset its password from the new address or ask your team's admin for help."],
  });
  return { email };
}

/** `Log out everywhere`: every session of the account ends, this browser's too. */
export async function logOutEverywhere(userId: string): Promise<void> {
  const user = await accountOrThrow(db, userId);
  await db.$transaction(async (tx) => {
    await endSessions(userId, tx);
    await recordActivity({ userId, actor: actorOf(user), action: "sessions.ended", target: user.email }, tx);
  });
}
