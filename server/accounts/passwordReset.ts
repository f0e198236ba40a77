// Password reset (contract: "Accounts for real"): a link by mail, whether or not the address has
// an account (the answer is the same), and a new password that ends every session.
import { z } from "zod";
import { recordActivity } from "../activity";
import { now } from "../platform/clock";
import { db } from "../platform/db";
import { appLink, sendMail, type Mail } from "../platform/mail";
import { accountRules } from "../rate-limit";
import { issueToken, retireTokens, TOKEN_LIFETIME_SECONDS, useToken } from "./accountTokens";
import { hashPassword } from "./passwords";
import { endSessions } from "./sessions";
import {
  passwordRule,
  tokenInput,
  hours,
  spend,
  withLink,
  type Account,
  actorOf,
  accountOrThrow,
} from "./accountChecks";

export const resetRequestInput = z.object({ email: z.string().max(320) });
export const resetPasswordInput = tokenInput.extend({ password: passwordRule });

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

export const resetMail = (user: Account, token: string, ...why: string[]): Mail => ({
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
