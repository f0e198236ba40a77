// Deleting an account (contract: "Accounts for real"), from /profile: confirmed by typing the
// email and the password. Refused while the account owns a team with other members. What goes
// and what stays is listed in the README ("Accounts").
import { z } from "zod";
import { recordActivity } from "../activity";
import { now } from "../platform/clock";
import { db, type Tx } from "../platform/db";
import { DomainError, invalid, notFound } from "../platform/errors";
import { loginRules, take } from "../rate-limit";
import { keyDisplay } from "../keys/apiKeys";
import { deleteLibraryDynamicCodes, forgetResolutions } from "../library/dynamicCodes";
import { libraryWhere, type Library } from "../library/library";
import { libraryKey } from "../library/libraryKey";
import { verifyPassword } from "./passwords";

export const deletionInput = z.object({ email: z.string().max(320), password: z.string().max(200) });

export const DELETED_NAME = "Deleted account";
/** Unique and unroutable (RFC 2606 `.invalid`): the person's address is free to sign up again. */
const placeholderEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;

/**
 * Empties a library that nobody keeps: static codes deleted, dynamic codes soft-deleted (410),
 * its webhook endpoints (with their secrets and undelivered events) and remembered
 * Idempotency-Key answers removed. Returns the dynamic codes, to forget once committed.
 */
async function emptyLibrary(tx: Tx, library: Library): Promise<string[]> {
  const key = libraryKey(library);
  const endpoints = await tx.webhookEndpoint.findMany({ where: { library: key }, select: { id: true } });
  await tx.webhookDelivery.deleteMany({ where: { endpointId: { in: endpoints.map((e) => e.id) } } });
  await tx.webhookEndpoint.deleteMany({ where: { library: key } });
  await tx.webhookEvent.deleteMany({ where: { library: key } });
  await tx.idempotencyKey.deleteMany({ where: { library: key } });
  await tx.staticCode.deleteMany({ where: libraryWhere(library) });
  return deleteLibraryDynamicCodes(tx, library);
}

export async function deleteAccount(userId: string, confirmation: z.infer<typeof deletionInput>): Promise<void> {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user || user.deletedAt) throw notFound("No such account");
  if (confirmation.email.trim().toLowerCase() !== user.email)
    throw invalid(`Type your email address (${user.email}) to confirm`);
  // Wrong passwords here are limited as the other checks on /profile are (a stolen session must
  // not guess it faster than the log-in form allows); failed log-ins elsewhere never block it.
  const limitKey = `password-check:${user.id}`;
  const asked = await take(limitKey, loginRules.account, 0);
  if (!asked.allowed)
    throw new DomainError(
      "rate_limited",
      `Too many wrong passwords: try again in ${Math.ceil(asked.retryAfter / 60)} minute(s)`,
    );
  if (!(await verifyPassword(confirmation.password, user.passwordHash))) {
    await take(limitKey, loginRules.account);
    throw invalid("Password is not right");
  }
  const actor = { id: user.id, label: user.email };

  const codes = await db.$transaction(async (tx) => {
    // Lock the teams it owns first (as every membership change does): nobody joins meanwhile.
    await tx.$executeRaw`UPDATE "Team" SET "name" = "name" WHERE "ownerId" = ${userId}`;
    const owned = await tx.team.findMany({ where: { ownerId: userId } });
    for (const team of owned) {
      if ((await tx.membership.count({ where: { teamId: team.id, userId: { not: userId } } })) > 0) {
        throw new DomainError(
          "conflict",
          `You own the team “${team.name}”, which has other members: hand it to another admin first (Make owner on the Business page)`,
        );
      }
    }
    const teamIds = owned.map((t) => t.id);

    // Its keys, and every key of a team that goes with it; business ones on the team's log.
    const keys = await tx.apiKey.findMany({ where: { live: true, OR: [{ userId }, { teamId: { in: teamIds } }] } });
    await tx.apiKey.updateMany({
      where: { id: { in: keys.map((k) => k.id) } },
      data: { live: null, revokedAt: new Date(), revokedById: userId },
    });
    for (const key of keys.filter((k) => k.teamId)) {
      await recordActivity(
        {
          teamId: key.teamId,
          actor,
          action: "key.revoked",
          target: keyDisplay(key),
          detail: { reason: "account deleted" },
        },
        tx,
      );
    }

    const codes = await emptyLibrary(tx, { kind: "personal", userId });
    // A team its owner leaves alone goes with the account: emptied like the personal library,
    // its pending invitations cancelled. The row stays (its codes are never reused).
    for (const team of owned) {
      codes.push(...(await emptyLibrary(tx, { kind: "team", teamId: team.id })));
      await tx.invitation.updateMany({
        where: { teamId: team.id, acceptedAt: null, cancelledAt: null },
        data: { cancelledAt: now() },
      });
      await tx.team.update({ where: { id: team.id }, data: { name: "Deleted team" } });
    }
    // A member leaving another's team: on that team's log, as a removal is.
    const left = await tx.membership.findFirst({ where: { userId, teamId: { notIn: teamIds } } });
    if (left)
      await recordActivity(
        {
          teamId: left.teamId,
          actor,
          action: "member.removed",
          target: user.email,
          detail: { role: left.role, reason: "account deleted" },
        },
        tx,
      );
    await tx.membership.deleteMany({ where: { userId } });
    await tx.accountToken.deleteMany({ where: { userId } });
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await tx.user.update({
      where: { id: userId },
      data: {
        email: placeholderEmail(userId),
        name: DELETED_NAME,
        passwordHash: "!", // no scrypt hash matches it: log-in always fails
        tier: "free",
        totpSecret: null,
        totpEnabledAt: null,
        emailVerifiedAt: null,
        deletedAt: now(),
        sessionVersion: { increment: 1 },
      },
    });
    // The account's own log (log-ins with browser, OS and country) would still identify the
    // person; its teams' logs keep what they must (the database allows this delete only once
    // the account is marked deleted).
    await tx.activityEntry.deleteMany({ where: { userId, teamId: null } });
    return codes;
  });
  await forgetResolutions(codes);
}
