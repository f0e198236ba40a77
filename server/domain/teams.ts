// Business teams: one shared library, members with roles, business keys, and the review of
// drafts. Everything here is done on the /business page (session procedures), never /v1.
import { z } from "zod";
import { db, isUniqueViolation, type Tx } from "../db";
import { DomainError, notFound } from "../errors";
import { timeOrderedId } from "../ids";
import { generateKey, keyDisplay, revokeKey, type KeySummary } from "./apiKeys";
import { deleteDynamicCode, updateDynamicCode } from "./dynamicCodes";
import type { Actor, Library } from "./library";
import { deleteStaticCode } from "./staticCodes";

export const ROLES = ["admin", "writer", "viewer"] as const;
export type Role = (typeof ROLES)[number];
export const roleField = z.enum(ROLES, { error: "role must be one of admin, writer, viewer" });
export const teamNameField = z.string().trim().min(1, "Team name must not be empty").max(100, "Team name must be at most 100 characters");

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

async function requireAdmin(userId: string) {
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
async function withTeamLocked<T>(teamId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`UPDATE "Team" SET "name" = "name" WHERE "id" = ${teamId}`;
    return work(tx);
  });
}

const revokeBusinessKeys = (tx: Tx, userId: string, byUserId: string) =>
  tx.apiKey.updateMany({ where: { userId, scope: "business", live: true }, data: { live: null, revokedAt: new Date(), revokedById: byUserId } });

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
  if (memberUserId === ownerId && change !== "admin") throw new DomainError("conflict", "The team's owner stays an admin of the team");
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
    await memberToChange(tx, admin.teamId, admin.team.ownerId, memberUserId, role);
    await tx.membership.update({ where: { userId: memberUserId }, data: { role } });
    if (role === "viewer") await revokeBusinessKeys(tx, memberUserId, adminId);
  });
}

/** Removing a member revokes their business key at once. */
export async function removeMember(adminId: string, memberUserId: string) {
  const admin = await requireAdmin(adminId);
  await withTeamLocked(admin.teamId, async (tx) => {
    await memberToChange(tx, admin.teamId, admin.team.ownerId, memberUserId, "remove");
    await tx.membership.delete({ where: { userId: memberUserId } });
    await revokeBusinessKeys(tx, memberUserId, adminId);
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
  const key = await db.apiKey.findFirst({ where: { id: keyId, scope: "business", teamId: membership.teamId, live: true } });
  if (!key || (membership.role !== "admin" && key.userId !== userId)) throw notFound("No such live key in your team");
  await revokeKey(keyId, userId);
}

const stamp = (date: Date | null) => (date ? date.toISOString() : null);

/** What /business shows the member: admins see every teammate's key, others their own. */
export async function teamOverview(userId: string) {
  const membership = await membershipOf(userId);
  if (!membership) return null;
  const teamId = membership.teamId;
  const isAdmin = membership.role === "admin";
  const [members, keys, statics, dynamics] = await Promise.all([
    db.membership.findMany({ where: { teamId }, include: { user: true }, orderBy: { createdAt: "asc" } }),
    db.apiKey.findMany({ where: { teamId, scope: "business", live: true, ...(isAdmin ? {} : { userId }) }, include: { user: true }, orderBy: { createdAt: "asc" } }),
    db.staticCode.findMany({ where: { teamId, reviewStatus: "draft" }, include: { createdBy: true }, orderBy: { id: "desc" } }),
    db.dynamicCode.findMany({ where: { teamId, deletedAt: null, status: "draft" }, include: { createdBy: true }, orderBy: { id: "desc" } }),
  ]);
  const drafts = [
    ...statics.map((s) => ({ kind: "static" as const, id: s.id, name: s.name, target: s.url, status: s.reviewStatus, createdBy: s.createdBy.email, createdAt: s.createdAt })),
    ...dynamics.map((d) => ({ kind: "dynamic" as const, id: d.code, name: d.name, target: d.destinationUrl, status: d.status, createdBy: d.createdBy.email, createdAt: d.createdAt })),
  ]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
    .map((item) => ({ ...item, createdAt: item.createdAt.toISOString() }));
  return {
    team: { id: teamId, name: membership.team.name, ownerEmail: membership.team.owner.email, ownerOnBusiness: membership.team.owner.tier === "business" },
    role: membership.role as Role,
    members: members.map((m) => ({ userId: m.userId, email: m.user.email, name: m.user.name, role: m.role as Role, isOwner: m.userId === membership.team.ownerId })),
    keys: keys.map((k) => ({
      id: k.id,
      email: k.user.email,
      own: k.userId === userId,
      display: keyDisplay(k),
      createdAt: k.createdAt.toISOString(),
      activeFrom: k.activeFrom.toISOString(),
      lastUsedAt: stamp(k.lastUsedAt),
    })),
    drafts,
  };
}

export type TeamOverview = NonNullable<Awaited<ReturnType<typeof teamOverview>>>;

export const itemKind = z.enum(["static", "dynamic"]);
export type ItemKind = z.infer<typeof itemKind>;

const teamActor = (membership: { userId: string; teamId: string; role: string }): Actor => ({
  userId: membership.userId,
  library: { kind: "team", teamId: membership.teamId },
  role: membership.role as Role,
});

/** Approve: the draft becomes active (a dynamic code starts resolving); who and when are kept. */
export async function approveDraft(adminId: string, kind: ItemKind, id: string) {
  const admin = await requireAdmin(adminId);
  if (kind === "dynamic") {
    const row = await db.dynamicCode.findFirst({ where: { code: id, teamId: admin.teamId, deletedAt: null, status: "draft" } });
    if (!row) throw notFound("No such draft in your team");
    await updateDynamicCode(teamActor(admin), { code: id, status: "active" });
    return;
  }
  const { count } = await db.staticCode.updateMany({
    where: { id, teamId: admin.teamId, reviewStatus: "draft" },
    data: { reviewStatus: "active", reviewedById: adminId, reviewedAt: new Date() },
  });
  if (count === 0) throw notFound("No such draft in your team");
}

/** Reject: the draft is deleted (a dynamic code's record stays, deleted, so its code is never reused). */
export async function rejectDraft(adminId: string, kind: ItemKind, id: string) {
  const admin = await requireAdmin(adminId);
  const library: Library = { kind: "team", teamId: admin.teamId };
  const draft =
    kind === "dynamic"
      ? await db.dynamicCode.findFirst({ where: { code: id, teamId: admin.teamId, deletedAt: null, status: "draft" } })
      : await db.staticCode.findFirst({ where: { id, teamId: admin.teamId, reviewStatus: "draft" } });
  if (!draft) throw notFound("No such draft in your team");
  if (kind === "dynamic") {
    await db.dynamicCode.update({ where: { code: id }, data: { reviewedById: adminId, reviewedAt: new Date() } });
    await deleteDynamicCode(library, id);
  } else {
    await deleteStaticCode(library, id);
  }
}
