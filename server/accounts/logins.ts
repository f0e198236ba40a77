// A log-in attempt (next-auth's credentials, server/accounts/auth.ts): the password, then the second
// factor for an account with two-factor authentication, and the entry in the account's
// activity log: browser, OS and country (as a scan's are worked out), never the address.
import { recordActivity } from "../activity";
import { db } from "../platform/db";
import { countryOf } from "../scan/country";
import { describeAgent } from "../scan/visitor";
import { checkSecondFactor } from "./twoFactor";
import { checkCredentials } from "./users";

/** Where an attempt came from, as the request tells it. */
export type LoginAttempt = { userAgent: string; address: string; countryHeader: string | null };

export type LoginOutcome =
  | { ok: true; user: { id: string; email: string; name: string; sessionVersion: number } }
  /** Wrong email or password, or a wrong authentication code: counts as a failed log-in. */
  | { ok: false; reason: "password" | "code" }
  /** The password was right; the account asks for its authentication code. */
  | { ok: false; reason: "code_required" };

const from = (attempt: LoginAttempt) => {
  const agent = describeAgent(attempt.userAgent);
  return { browser: agent.browser, os: agent.os, country: countryOf(attempt.countryHeader, attempt.address) };
};

export async function logIn(
  email: string,
  password: string,
  code: string,
  attempt: LoginAttempt,
): Promise<LoginOutcome> {
  const user = email && password ? await checkCredentials(email, password) : null;
  if (!user) {
    // On the account's own log when the email names one (the same answer to the caller either way).
    const named = email ? await db.user.findUnique({ where: { email }, select: { id: true, email: true } }) : null;
    if (named)
      await recordActivity({
        userId: named.id,
        actor: { id: named.id, label: named.email },
        action: "login.failed",
        detail: { reason: "password", ...from(attempt) },
      });
    return { ok: false, reason: "password" };
  }
  const actor = { id: user.id, label: user.email };
  if (user.totpEnabledAt) {
    if (!code.trim()) return { ok: false, reason: "code_required" };
    if (!(await checkSecondFactor(user, code))) {
      await recordActivity({
        userId: user.id,
        actor,
        action: "login.failed",
        detail: { reason: "authentication code", ...from(attempt) },
      });
      return { ok: false, reason: "code" };
    }
  }
  await recordActivity({
    userId: user.id,
    actor,
    action: "login",
    detail: { ...from(attempt), ...(user.totpEnabledAt ? { two_factor: true } : {}) },
  });
  return { ok: true, user: { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion } };
}
