// The activity log (contract: "Accounts for real"): who did what, for a team's admins on
// /business and for each account on /profile. Entries are only ever added here, in the same
// transaction as the change they report when there is one; nothing in the app updates or
// deletes them except the retention sweep (1 year). Never a raw client address, a key, a token
// or a password: a key is named by its display (qrp_AbCd…wXyZ), a log-in by browser, OS and
// country.
//
// Reading: an account's own log, and a team's (its admins only), newest first, a page at a time
// on the pages and as CSV. Retention: the server sweeps entries older than a year every hour
// (startRetentionSweep); on PostgreSQL the table's trigger refuses any other DELETE.
import { now } from "../platform/clock";
import { db, type Tx } from "../platform/db";
import { DomainError } from "../platform/errors";
import { timeOrderedId } from "../platform/ids";
import { logError } from "../platform/log";
import { processSingleton } from "../platform/process-singleton";
import { decodeCursor, encodeCursor } from "../library/validation";

/** What a team's log shows. */
export const TEAM_ACTIONS = [
  "key.generated",
  "key.revoked",
  "invitation.sent",
  "invitation.cancelled",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "team.created",
  "team.owner_changed",
  "draft.approved",
  "draft.rejected",
  "code.created",
  "code.updated",
  "code.change_requested",
  "code.change_approved",
  "code.change_rejected",
  "code.deleted",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "bundle.exported",
  "bundle.imported",
  "domain.added",
  "domain.verified",
  "domain.deleted",
  "style_preset.created",
  "style_preset.updated",
  "style_preset.deleted",
] as const;

/** What an account's own log shows. */
export const ACCOUNT_ACTIONS = [
  "login",
  "login.failed",
  "email.verified",
  "password.changed",
  "password.reset",
  "email.changed",
  "email.change_requested",
  "email.change_undone",
  "email.claim_attempted",
  "sessions.ended",
  "two_factor.enabled",
  "two_factor.disabled",
  "recovery_code.used",
  "key.generated",
  "key.revoked",
  "bundle.exported",
  "bundle.imported",
] as const;

export type ActivityAction = (typeof TEAM_ACTIONS)[number] | (typeof ACCOUNT_ACTIONS)[number];

/** A value an entry's detail holds: JSON (a change's before and after are objects). */
export type ActivityValue = string | number | boolean | null | ActivityValue[] | { [key: string]: ActivityValue };

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
  /** Further facts: browser, os, country, role; a change's `before` and `after` (never an address, key or secret). */
  detail?: Record<string, ActivityValue>;
};

type Client = Tx | typeof db;

/** Adds entries, through `client` (a transaction of the change they report) or the database. */
export async function recordActivity(entries: ActivityInput | ActivityInput[], client: Client = db): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (list.length === 0) return;
  const at = now();
  await client.activityEntry.createMany({
    data: list.map((entry) => ({
      id: timeOrderedId("act"),
      teamId: entry.teamId ?? null,
      userId: entry.userId ?? null,
      actorId: entry.actor?.id ?? null,
      actorLabel: entry.actor?.label ?? "QR Records",
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      createdAt: at,
    })),
  });
}

/** An account as an entry names it: its id and its email now. */
export async function actorOf(userId: string, client: Client = db): Promise<{ id: string; label: string }> {
  const user = await client.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
  return { id: userId, label: user.email };
}

// ---- reading ----------------------------------------------------------------------------

/** Whose log: the account's own, or its team's (admins only). */
export const ACTIVITY_SCOPES = ["account", "team"] as const;
export type ActivityScope = (typeof ACTIVITY_SCOPES)[number];

/** An entry as the pages and the CSV show it. */
export type ActivityView = {
  id: string;
  time: Date;
  actor: string;
  action: string;
  target: string | null;
  details: string;
};

export const ACTIVITY_CSV_COLUMNS = ["time", "actor", "action", "target", "details"] as const;
export const ACTIVITY_PAGE_SIZE = 20;

/** `browser: Chrome; os: Linux` from the stored JSON (an object, such as a change's before, as JSON). */
const detailsText = (detail: string | null) =>
  detail
    ? Object.entries(JSON.parse(detail) as Record<string, unknown>)
        .map(
          ([key, value]) =>
            `${key}: ${value !== null && typeof value === "object" ? JSON.stringify(value) : (value ?? "—")}`,
        )
        .join("; ")
    : "";

/** The filter of the log `viewerId` may read in `scope`. */
async function logOf(viewerId: string, scope: ActivityScope): Promise<{ teamId: string } | { userId: string }> {
  if (scope === "account") return { userId: viewerId };
  const membership = await db.membership.findUnique({
    where: { userId: viewerId },
    select: { teamId: true, role: true },
  });
  if (!membership) throw new DomainError("forbidden", "You are not in a team");
  if (membership.role !== "admin") throw new DomainError("forbidden", "Only a team admin can see the team's activity");
  return { teamId: membership.teamId };
}

async function newestEntries(
  where: { teamId: string } | { userId: string },
  before: string | undefined,
  take: number,
): Promise<ActivityView[]> {
  const rows = await db.activityEntry.findMany({
    where: { ...where, ...(before ? { id: { lt: before } } : {}) },
    orderBy: { id: "desc" },
    take,
  });
  return rows.map((row) => ({
    id: row.id,
    time: row.createdAt,
    actor: row.actorLabel,
    action: row.action,
    target: row.target,
    details: detailsText(row.detail),
  }));
}

/** A page of the log, newest first (ids are time-ordered), and the cursor of the next. */
export async function activityPage(
  viewerId: string,
  scope: ActivityScope,
  cursor?: string,
): Promise<{ entries: ActivityView[]; next_cursor: string | null }> {
  const where = await logOf(viewerId, scope);
  const rows = await newestEntries(where, decodeCursor(cursor, "act"), ACTIVITY_PAGE_SIZE + 1);
  const more = rows.length > ACTIVITY_PAGE_SIZE;
  const entries = more ? rows.slice(0, ACTIVITY_PAGE_SIZE) : rows;
  return { entries, next_cursor: more ? encodeCursor(entries[entries.length - 1].id) : null };
}

/** The whole log as CSV rows (ACTIVITY_CSV_COLUMNS), newest first, a thousand at a time. */
export async function activityExportRows(viewerId: string, scope: ActivityScope): Promise<AsyncGenerator<unknown[][]>> {
  const where = await logOf(viewerId, scope);
  return (async function* () {
    let before: string | undefined;
    for (;;) {
      const rows = await newestEntries(where, before, 1000);
      if (rows.length > 0) yield rows.map((r) => [r.time, r.actor, r.action, r.target, r.details]);
      if (rows.length < 1000) return;
      before = rows[rows.length - 1].id;
    }
  })();
}

// ---- retention --------------------------------------------------------------------------

const SWEEP_EVERY_MS = 3600 * 1000;
const sweeper = processSingleton("activity.sweeper", () => ({ timer: null as NodeJS.Timeout | null }));

/** Deletes the entries older than a year before `at`, a thousand at a time; returns how many went. */
export async function sweepActivity(at: Date = now()): Promise<number> {
  // A calendar year, as PostgreSQL's `now() - interval '1 year'` in the table's trigger.
  const cutoff = new Date(at);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - 1);
  let removed = 0;
  for (;;) {
    const old = await db.activityEntry.findMany({
      where: { createdAt: { lt: cutoff } },
      select: { id: true },
      orderBy: { createdAt: "asc" },
      take: 1000,
    });
    if (old.length === 0) return removed;
    removed += (await db.activityEntry.deleteMany({ where: { id: { in: old.map((e) => e.id) } } })).count;
    if (old.length < 1000) return removed;
  }
}

/** The hourly sweep of the production server (server/http/server.ts). */
export function startRetentionSweep(): void {
  if (sweeper.timer) return;
  const sweep = () => void sweepActivity().catch((error) => logError("activity.sweep_failed", {}, error));
  sweeper.timer = setInterval(sweep, SWEEP_EVERY_MS);
  sweeper.timer.unref();
  sweep();
}
