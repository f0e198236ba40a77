// Sign-up with a verified address (contract: "Accounts for real"): the account, its
// verification mail and link. A taken address is answered as a free one, and its owner gets a
// notice instead (issue 37).
import { z } from "zod";
import { recordActivity } from "../activity";
import { now } from "../platform/clock";
import { db, isUniqueViolation } from "../platform/db";
import { DomainError } from "../platform/errors";
import { appLink, sendMail } from "../platform/mail";
import { accountRules } from "../rate-limit";
import { issueToken, TOKEN_LIFETIME_SECONDS, useToken } from "./accountTokens";
import { hashPassword } from "./passwords";
import { insertUser, signupInput } from "./users";
import { hours, spend, withLink, type Account, actorOf, accountOrThrow, claimNotice } from "./accountChecks";

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
