// Team invitations (contract: "Accounts for real"): an admin invites an address with a role;
// the mail's link /invite/<token> lives 7 days, works once, and can be cancelled. The invitee
// accepts after logging in (or signing up) with that address, and joins with the role. Only
// the token's SHA-256 is stored.
import { z } from "zod";
import { recordActivity } from "../activity";
import { after, now } from "../platform/clock";
import { db, isUniqueViolation } from "../platform/db";
import { DomainError, notFound } from "../platform/errors";
import { randomString, timeOrderedId } from "../platform/ids";
import { appLink, sendMail } from "../platform/mail";
import { invitationRule, take } from "../rate-limit";
import { hashToken } from "../accounts/accountTokens";
import { requireAdmin, withTeamLocked, type Role } from "./teams";

export const INVITATION_DAYS = 7;

/** RFC 5321's limits on a mailbox a mail can be delivered to: 254 characters, 64 before the @. */
export const MAX_ADDRESS = 254;
export const MAX_LOCAL_PART = 64;
const deliverable = (email: string) =>
  email.length > MAX_ADDRESS
    ? `An email address has at most ${MAX_ADDRESS} characters (RFC 5321); this one has ${email.length}`
    : email.lastIndexOf("@") > MAX_LOCAL_PART
      ? `The part of an email address before the @ has at most ${MAX_LOCAL_PART} characters (RFC 5321)`
      : null;

// Lengths first (cheap, and a megabyte is refused before any pattern runs), then the form.
export const invitationEmail = z
  .string()
  .trim()
  .toLowerCase()
  .superRefine((email, ctx) => {
    const tooLong = deliverable(email);
    if (tooLong) ctx.addIssue({ code: "custom", message: tooLong, abort: true });
  })
  .pipe(z.email({ error: "Enter a valid email address" }));

const gone = (message: string) => new DomainError("gone", message);

/** Not accepted, not cancelled, not expired. */
const pendingWhere = () => ({ acceptedAt: null, cancelledAt: null, expiresAt: { gt: now() } });

/**
 * Sends an invitation to `email` with `role`. A pending invitation of the team to the same
 * address is replaced (its link stops working), so inviting again is how a lost mail is resent.
 */
export async function inviteMember(adminId: string, email: string, role: Role): Promise<{ id: string }> {
  // Whatever edge invites: an address no mail can reach is refused before anything is written.
  const tooLong = deliverable(email);
  if (tooLong) throw new DomainError("invalid", tooLong);
  const admin = await requireAdmin(adminId);
  const teamId = admin.teamId;
  const existing = await db.user.findUnique({ where: { email }, include: { membership: true } });
  if (existing?.membership?.teamId === teamId)
    throw new DomainError("conflict", "This account is already in your team");
  // Counted per team, before anything is written: each invitation sends a mail.
  const limit = await take(`invite:team:${teamId}`, invitationRule);
  if (!limit.allowed)
    throw new DomainError(
      "rate_limited",
      `Too many invitations: try again in ${Math.ceil(limit.retryAfter / 60)} minute(s)`,
    );
  const inviter = await db.user.findUniqueOrThrow({ where: { id: adminId } });
  const token = randomString(43);
  const invitation = await withTeamLocked(teamId, async (tx) => {
    await tx.invitation.updateMany({ where: { teamId, email, ...pendingWhere() }, data: { cancelledAt: now() } });
    const createdAt = now();
    const row = await tx.invitation.create({
      data: {
        id: timeOrderedId("inv"),
        teamId,
        email,
        role,
        tokenHash: hashToken(token),
        invitedById: adminId,
        expiresAt: after(INVITATION_DAYS * 86_400, createdAt),
        createdAt,
      },
    });
    await recordActivity(
      {
        teamId,
        actor: { id: adminId, label: inviter.email },
        action: "invitation.sent",
        target: email,
        detail: { role },
      },
      tx,
    );
    return row;
  });
  await sendMail({
    to: email,
    subject: `Join the team “${admin.team.name}” on QR Records`,
    paragraphs: [
      `${inviter.name} (${inviter.email}) invites you to the team “${admin.team.name}” on QR Records, as ${role === "admin" ? "an admin" : `a ${role}`}.`,
      `Log in, or create an account, with this address (${email}) and accept. The link works once and expires in ${INVITATION_DAYS} days.`,
      "Not expecting this? Ignore this mail: nothing happens unless you accept.",
    ],
    action: { label: "See the invitation", url: appLink(`/invite/${token}`) },
  });
  return { id: invitation.id };
}

/** The team's pending invitations, for its admins (newest first). */
export async function pendingInvitations(adminId: string) {
  const admin = await requireAdmin(adminId);
  const rows = await db.invitation.findMany({
    where: { teamId: admin.teamId, ...pendingWhere() },
    orderBy: { id: "desc" },
  });
  const inviters = await db.user.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.invitedById))] } },
    select: { id: true, email: true },
  });
  const inviterEmail = new Map(inviters.map((u) => [u.id, u.email]));
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role as Role,
    invitedBy: inviterEmail.get(r.invitedById) ?? "",
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
  }));
}

export async function cancelInvitation(adminId: string, invitationId: string): Promise<void> {
  const admin = await requireAdmin(adminId);
  const teamId = admin.teamId;
  const adminEmail = (await db.user.findUniqueOrThrow({ where: { id: adminId } })).email;
  await withTeamLocked(teamId, async (tx) => {
    const invitation = await tx.invitation.findFirst({ where: { id: invitationId, teamId, ...pendingWhere() } });
    if (!invitation) throw notFound("No such pending invitation in your team");
    await tx.invitation.update({ where: { id: invitation.id }, data: { cancelledAt: now() } });
    await recordActivity(
      {
        teamId,
        actor: { id: adminId, label: adminEmail },
        action: "invitation.cancelled",
        target: invitation.email,
        detail: { role: invitation.role },
      },
      tx,
    );
  });
}

export type InvitationView =
  | { state: "invalid" | "cancelled" | "expired" | "accepted" }
  | { state: "pending"; teamName: string; role: Role; email: string; invitedBy: string; expiresAt: string };

/** What /invite/<token> shows: the team and role of a pending invitation, or why the link is refused. */
export async function invitationByToken(token: string): Promise<InvitationView> {
  const invitation = await db.invitation.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!invitation) return { state: "invalid" };
  if (invitation.acceptedAt) return { state: "accepted" };
  if (invitation.cancelledAt) return { state: "cancelled" };
  if (invitation.expiresAt <= now()) return { state: "expired" };
  const [team, inviter] = await Promise.all([
    db.team.findUniqueOrThrow({ where: { id: invitation.teamId } }),
    db.user.findUnique({ where: { id: invitation.invitedById } }),
  ]);
  return {
    state: "pending",
    teamName: team.name,
    role: invitation.role as Role,
    email: invitation.email,
    invitedBy: inviter?.name ?? "An admin",
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/** Why a link is refused, in the words the invitation page and the Accept button show. */
export const REFUSED: Record<Exclude<InvitationView["state"], "pending">, string> = {
  invalid: "This invitation link is not valid: check that you opened the whole link from the mail",
  cancelled: "This invitation was cancelled by the team's admin: ask them for a new one",
  expired: `This invitation has expired (links last ${INVITATION_DAYS} days): ask the team's admin for a new one`,
  accepted: "This invitation has already been used",
};

/**
 * The logged-in account accepts: it must have the invited address and no team yet. It joins
 * with the invited role; the link is used up. Opening the mailed link proves the address, so
 * an account not yet verified is verified by it.
 */
export async function acceptInvitation(userId: string, token: string): Promise<{ teamName: string; role: Role }> {
  const tokenHash = hashToken(token);
  const found = await db.invitation.findUnique({ where: { tokenHash } });
  if (!found) throw notFound(REFUSED.invalid);
  const user = await db.user.findUniqueOrThrow({
    where: { id: userId },
    include: { membership: { include: { team: true } } },
  });
  try {
    return await withTeamLocked(found.teamId, async (tx) => {
      // Read again under the team's lock: a cancellation or another acceptance may have won.
      const invitation = await tx.invitation.findUniqueOrThrow({ where: { tokenHash } });
      if (invitation.acceptedAt) throw gone(REFUSED.accepted);
      if (invitation.cancelledAt) throw gone(REFUSED.cancelled);
      if (invitation.expiresAt <= now()) throw gone(REFUSED.expired);
      if (invitation.email !== user.email)
        throw new DomainError(
          "forbidden",
          `This invitation is for ${invitation.email}: log in with that address to accept it`,
        );
      if (user.membership)
        throw new DomainError(
          "conflict",
          `You already belong to the team “${user.membership.team.name}”: an account can be in one team only`,
        );
      const team = await tx.team.findUniqueOrThrow({ where: { id: invitation.teamId } });
      await tx.membership.create({
        data: { id: timeOrderedId("mem"), teamId: team.id, userId, role: invitation.role },
      });
      await tx.invitation.update({ where: { id: invitation.id }, data: { acceptedAt: now(), acceptedById: userId } });
      if (!user.emailVerifiedAt) await tx.user.update({ where: { id: userId }, data: { emailVerifiedAt: now() } });
      await recordActivity(
        {
          teamId: team.id,
          actor: { id: userId, label: user.email },
          action: "member.joined",
          target: user.email,
          detail: { role: invitation.role },
        },
        tx,
      );
      return { teamName: team.name, role: invitation.role as Role };
    });
  } catch (error) {
    // Joined another team meanwhile (the unique index on Membership.userId).
    if (isUniqueViolation(error))
      throw new DomainError("conflict", "You already belong to a team: an account can be in one team only");
    throw error;
  }
}
