// The activity log (contract: "Accounts for real"): who did what, for a team's admins on
// /business and for each account on /profile. Entries are only ever added here, in the same
// transaction as the change they report when there is one; nothing in the app updates or
// deletes them except the retention sweep (1 year). Never a raw client address, a key, a token
// or a password: a key is named by its display (qrp_AbCd…wXyZ), a log-in by browser, OS and
// country.
import { now } from "../clock";
import { db, type Tx } from "../db";
import { timeOrderedId } from "../ids";

/** What a team's log shows. */
export const TEAM_ACTIONS = [
  "key.generated",
  "key.revoked",
  "invitation.sent",
  "invitation.cancelled",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "team.owner_changed",
  "draft.approved",
  "draft.rejected",
  "code.deleted",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
] as const;

/** What an account's own log shows. */
export const ACCOUNT_ACTIONS = [
  "login",
  "login.failed",
  "email.verified",
  "password.changed",
  "password.reset",
  "email.changed",
  "sessions.ended",
  "two_factor.enabled",
  "two_factor.disabled",
  "recovery_code.used",
  "key.generated",
  "key.revoked",
] as const;

export type ActivityAction = (typeof TEAM_ACTIONS)[number] | (typeof ACCOUNT_ACTIONS)[number];

export type ActivityInput = {
  /** The team whose log shows it. */
  teamId?: string | null;
  /** The account whose own log shows it. */
  userId?: string | null;
  /** Who did it: an account (its id and email as they are now), or null for the service. */
  actor: { id: string; label: string } | null;
  action: ActivityAction;
  /** What it was done to, as shown now: a key's display, an email, a code, a role. */
  target?: string | null;
  /** Further facts: browser, os, country, role… (never an address, key or secret). */
  detail?: Record<string, string | number | boolean | null>;
};

/** Adds one entry, through `client` (a transaction of the change it reports) or the database. */
export async function recordActivity(entry: ActivityInput, client: Tx | typeof db = db): Promise<void> {
  await client.activityEntry.create({
    data: {
      id: timeOrderedId("act"),
      teamId: entry.teamId ?? null,
      userId: entry.userId ?? null,
      actorId: entry.actor?.id ?? null,
      actorLabel: entry.actor?.label ?? "QR Records",
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      createdAt: now(),
    },
  });
}
