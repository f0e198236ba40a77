// Business teams: one shared library, members with roles, business keys (the review of drafts:
// ./draftReview.ts). Everything here is done on the /business page (session procedures), never /v1.
import { z } from "zod";
import { db, isUniqueViolation, type Tx } from "../platform/db";
import { DomainError, notFound } from "../platform/errors";
import { timeOrderedId } from "../platform/ids";
import { actorOf, recordActivity } from "../activity";
import { generateKey, keyActivity, keyDisplay, revokeKey, type KeySummary } from "../keys/apiKeys";
import { endSessions } from "../accounts/sessions";

export const ROLES = ["admin", "writer", "viewer"] as const;
export type Role = (typeof ROLES)[number];
export const roleField = z.enum(ROLES, { error: "role must be one of admin, writer, viewer" });
export const teamNameField = z
  .string()
  .trim()
  .min(1, "Team name must not be empty")
  .max(100, "Team name must be at most 100 characters");

const forbidden = (message: string) => new DomainError("forbidden", message);

/** The account's membership (an account belongs to at most one team), with its team. */
export async function membershipOf(userId: string) {
  return db.membership.findUnique({ where: { userId }, include: { team: { include: { owner: true } } } });
}

async function requireMembership(userId: string) {
  const membership = await membershipOf(userId);
  if (!membership) throw forbidden("You are not in a team");
  return membership;
}

export async function requireAdmin(userId: string) {
  const membership = await requireMembership(userId);
  if (membership.role !== "admin") throw forbidden("Only a team admin can do this");
  return membership;
}

/** A Business account creates its team and becomes its first admin (and its owner). */
export async function createTeam(userId: string, name: string) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  if (user.tier !== "business") throw forbidden("Creating a team requires the Business plan");
  try {
    return await db.$transaction(async (tx) => {
      const team = await tx.team.create({ data: { id: timeOrderedId("team"), name, ownerId: userId } });
      await tx.membership.create({ data: { id: timeOrderedId("mem"), teamId: team.id, userId, role: "admin" } });
      await recordActivity(
        {
          teamId: team.id,
          actor: await actorOf(userId, tx),
          action: "team.created",
          target: name,
          detail: { before: null, after: { name } },
        },
        tx,
      );
      return team;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError("conflict", "You already belong to a team");
    throw error;
  }
}

/**
 * Membership changes of one team run one at a time: the first write locks the team's row
 * (PostgreSQL) or the database (SQLite), so "at least one admin" cannot be raced away.
 */
export async function withTeamLocked<T>(teamId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`UPDATE "Team" SET "name" = "name" WHERE "id" = ${teamId}`;
    return work(tx);
  });
}

/** Revokes the member's live business key, if any, with its entry on the logs. */
async function revokeBusinessKeys(tx: Tx, userId: string, by: { id: string; label: string }) {
  const revokedAt = new Date();
  await tx.apiKey.updateMany({
    where: { userId, scope: "business", live: true },
    data: { live: null, revokedAt, revokedById: by.id },
  });
  const keys = await tx.apiKey.findMany({ where: { userId, scope: "business", revokedAt, revokedById: by.id } });
  await recordActivity(
    keys.map((k) => keyActivity("key.revoked", k, by)),
    tx,
  );
}

/** Adds an existing account directly: test fixtures only (the pages invite: ./invitations.ts). */
export async function addMember(adminId: string, email: string, role: Role) {
  const admin = await requireAdmin(adminId);
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!user) throw notFound("No account has this email: ask them to sign up first");
  try {
    await db.membership.create({ data: { id: timeOrderedId("mem"), teamId: admin.teamId, userId: user.id, role } });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError("conflict", "This account already belongs to a team");
    throw error;
  }
}

/** The member must be in the admin's team; the team's owner stays an admin. */
async function memberToChange(tx: Tx, teamId: string, ownerId: string, memberUserId: string, change: "remove" | Role) {
  const member = await tx.membership.findUnique({ where: { userId: memberUserId } });
  if (!member || member.teamId !== teamId) throw notFound("No such member in your team");
  if (memberUserId === ownerId && change !== "admin")
    throw new DomainError("conflict", "The team's owner stays an admin of the team");
  if (member.role === "admin" && change !== "admin") {
    const admins = await tx.membership.count({ where: { teamId, role: "admin" } });
    if (admins <= 1) throw new DomainError("conflict", "A team keeps at least one admin");
  }
  return member;
}

/** Lowering a member to viewer revokes their business key at once. */
export async function setMemberRole(adminId: string, memberUserId: string, role: Role) {
  const admin = await requireAdmin(adminId);
  await withTeamLocked(admin.teamId, async (tx) => {
    const member = await memberToChange(tx, admin.teamId, admin.team.ownerId, memberUserId, role);
    await tx.membership.update({ where: { userId: memberUserId }, data: { role } });
    const actor = await actorOf(adminId, tx);
    if (member.role !== role) {
      const target = (await actorOf(memberUserId, tx)).label;
      await recordActivity(
        { teamId: admin.teamId, actor, action: "member.role_changed", target, detail: { from: member.role, to: role } },
        tx,
      );
    }
    if (role === "viewer") await revokeBusinessKeys(tx, memberUserId, actor);
  });
}

/** Removing a member revokes their business key and ends their sessions at once. */
export async function removeMember(adminId: string, memberUserId: string) {
  const admin = await requireAdmin(adminId);
  await withTeamLocked(admin.teamId, async (tx) => {
    const member = await memberToChange(tx, admin.teamId, admin.team.ownerId, memberUserId, "remove");
    await tx.membership.delete({ where: { userId: memberUserId } });
    const actor = await actorOf(adminId, tx);
    await recordActivity(
      {
        teamId: admin.teamId,
        actor,
        action: "member.removed",
        target: (await actorOf(memberUserId, tx)).label,
        detail: { role: member.role },
      },
      tx,
    );
    await revokeBusinessKeys(tx, memberUserId, actor);
    await endSessions(memberUserId, tx);
  });
}

/**
 * The owner hands the team to another admin, who becomes its owner: the team's keys then work
 * while the new owner is on the Business tier (the key gate reads the owner's tier). The
 * former owner stays an admin.
 */
export async function transferOwnership(ownerId: string, newOwnerUserId: string) {
  const membership = await requireAdmin(ownerId);
  if (membership.team.ownerId !== ownerId) throw forbidden("Only the team's owner can hand over the team");
  const teamId = membership.teamId;
  await withTeamLocked(teamId, async (tx) => {
    const team = await tx.team.findUniqueOrThrow({ where: { id: teamId } });
    if (team.ownerId !== ownerId) throw forbidden("Only the team's owner can hand over the team");
    const member = await tx.membership.findUnique({ where: { userId: newOwnerUserId }, include: { user: true } });
    if (!member || member.teamId !== teamId) throw notFound("No such member in your team");
    if (member.userId === ownerId) throw new DomainError("conflict", "You already own the team");
    if (member.role !== "admin")
      throw new DomainError("conflict", "Only an admin can own the team: make them an admin first");
    await tx.team.update({ where: { id: teamId }, data: { ownerId: newOwnerUserId } });
    await recordActivity(
      {
        teamId,
        actor: { id: ownerId, label: membership.team.owner.email },
        action: "team.owner_changed",
        target: member.user.email,
      },
      tx,
    );
  });
}

/** Writers and admins each hold their own business key; viewers none. */
export async function generateBusinessKey(userId: string): Promise<{ key: string; summary: KeySummary }> {
  const membership = await requireMembership(userId);
  if (membership.role === "viewer") throw forbidden("Viewers hold no business key: ask an admin to make you a writer");
  if (membership.team.owner.tier !== "business") throw forbidden("The team's owner is not on the Business plan");
  return generateKey(userId, "business", membership.teamId);
}

/** An admin revokes any teammate's live business key; anyone else only their own. */
export async function revokeTeamKey(userId: string, keyId: string) {
  const membership = await requireMembership(userId);
  const key = await db.apiKey.findFirst({
    where: { id: keyId, scope: "business", teamId: membership.teamId, live: true },
  });
  if (!key || (membership.role !== "admin" && key.userId !== userId)) throw notFound("No such live key in your team");
  await revokeKey(keyId, userId);
}

const stamp = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * What /business shows the member: admins see every teammate's key, others their own. The
 * review queue is the team library's drafts (libraryPage), paged like the library.
 */
export async function teamOverview(userId: string) {
  const membership = await membershipOf(userId);
  if (!membership) return null;
  const teamId = membership.teamId;
  const isAdmin = membership.role === "admin";
  const [members, keys] = await Promise.all([
    db.membership.findMany({ where: { teamId }, include: { user: true }, orderBy: { createdAt: "asc" } }),
    db.apiKey.findMany({
      where: { teamId, scope: "business", live: true, ...(isAdmin ? {} : { userId }) },
      include: { user: true },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  return {
    team: {
      id: teamId,
      name: membership.team.name,
      ownerEmail: membership.team.owner.email,
      ownerOnBusiness: membership.team.owner.tier === "business",
    },
    role: membership.role as Role,
    /** The viewer owns the team: only they can hand it over (Make owner). */
    isOwner: membership.team.ownerId === userId,
    members: members.map((m) => ({
      userId: m.userId,
      email: m.user.email,
      name: m.user.name,
      role: m.role as Role,
      isOwner: m.userId === membership.team.ownerId,
      // What a hand-over to them would mean for the team's keys (only the owner is shown it).
      onBusiness: membership.team.ownerId === userId ? m.user.tier === "business" : null,
    })),

    keys: keys.map((k) => ({
      id: k.id,
      email: k.user.email,
      own: k.userId === userId,
      display: keyDisplay(k),
      createdAt: k.createdAt.toISOString(),
      activeFrom: k.activeFrom.toISOString(),
      lastUsedAt: stamp(k.lastUsedAt),
    })),
  };
}

export type TeamOverview = NonNullable<Awaited<ReturnType<typeof teamOverview>>>;

export const itemKind = z.enum(["static", "dynamic"]);
export type ItemKind = z.infer<typeof itemKind>;
