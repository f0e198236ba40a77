// What the account's changes share (server/accounts/{signup,passwordReset,accounts}.ts): the
// input rules, the limits per address and per link, the account's lookup, and the notice to the
// owner of an address someone tried to take (issue 37: the caller is never told).
import { z } from "zod";
import { recordActivity } from "../activity";
import { db, type Tx } from "../platform/db";
import { DomainError } from "../platform/errors";
import { appLink, sendMail } from "../platform/mail";
import { accountRules, take, type Decision, type Rule } from "../rate-limit";
import { signupInput } from "./users";

export const passwordRule = signupInput.shape.password;
export const emailRule = signupInput.shape.email;

export const tokenInput = z.object({
  token: z
    .string()
    .min(1, "This link is incomplete: open it from the mail again")
    .max(200, "This link has expired or was already used: ask for a new one"),
});
export const currentPasswordRule = z.string().min(1, "Enter your current password").max(200);

export const hours = (seconds: number) => (seconds === 3600 ? "1 hour" : `${seconds / 3600} hours`);

export const tooMany = (decision: Decision, what: string) =>
  new DomainError(
    "rate_limited",
    `Too many ${what}: try again in ${Math.ceil(decision.retryAfter / 60)} minute(s)`,
    undefined,
    { "Retry-After": String(decision.retryAfter) },
  );

/** Spends one token of a limit, or refuses with when to try again. */
export async function spend(key: string, rule: Rule, what: string): Promise<void> {
  const decision = await take(key, rule);
  if (!decision.allowed) throw tooMany(decision, what);
}

/**
 * Uses a mailed link's token in `work`: only refused links count against the client address
 * (someone guessing tokens), so opening good links never runs into the limit.
 */
export async function withLink<T>(clientAddress: string, work: () => Promise<T>): Promise<T> {
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

export type Account = { id: string; email: string; name: string };
export const actorOf = (user: Account) => ({ id: user.id, label: user.email });

export async function accountOrThrow(client: Tx | typeof db, userId: string) {
  const user = await client.user.findUnique({ where: { id: userId } });
  if (!user || user.deletedAt) throw new DomainError("unauthenticated", "Log in first");
  return user;
}

/**
 * Tells the owner of a taken address that someone tried to sign up or move an account with
 * it (at most takenNotice's mails an hour; past that, silence, never a refusal), after the
 * answer. The caller learns nothing: the answer is the one a free address gets.
 */
export async function claimNotice(owner: Account, via: "signup" | "email_change"): Promise<void> {
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
