// API keys: generated and revoked on the web pages only, stored only as SHA-256 hashes,
// and checked by `authenticateApiKey`, the gate every /v1 request goes through.
import { createHash } from "node:crypto";
import DataLoader from "dataloader";
import { actorOf, recordActivity, type ActivityInput } from "../activity";
import { db, dialectSql, epochMs, isUniqueViolation, selectRows, type Dialect } from "../platform/db";
import { DomainError } from "../platform/errors";
import { env } from "../platform/env";
import { ONE_TURN } from "../platform/event-loop";
import { logError } from "../platform/log";
import { randomString, timeOrderedId } from "../platform/ids";
import { processSingleton } from "../platform/process-singleton";
import type { Actor } from "../library/library";
import { countRateLimited } from "../platform/metrics";
import { keyGenerationRule, take } from "../rate-limit";
import { VERIFY_FIRST } from "../accounts/accountWords";
import { hasApiAccess } from "../accounts/users";

export type KeyScope = "personal" | "business";
const PREFIX: Record<KeyScope, string> = { personal: "qrp_", business: "qrb_" };
const KEY_PATTERN = /^qr[pb]_[0-9A-Za-z]{40}$/;
/** lastUsedAt is a hint, not an audit log: write it at most this often per key. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The keys whose lastUsedAt is due, written together at the end of the event-loop turn in
 * which they were used: one statement for the turn's keys, not one per key (a wave of 3,000 keys
 * was 3,000 statements), and still at once, before the caller's next request.
 */
const lastUsedWriter = processSingleton(
  "apiKeys.lastUsed",
  () =>
    new DataLoader<string, void>(async (ids) => {
      // Without a cache, a key used by several requests of the turn comes once per request.
      const distinct = [...new Set(ids)];
      await db.apiKey
        .updateMany({ where: { id: { in: distinct } }, data: { lastUsedAt: new Date() } })
        .catch((error) => logError("api_keys.last_used_failed", { keys: distinct.length }, error));
      return ids.map(() => undefined);
    }, ONE_TURN),
);

export const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

/** What the pages show of a key once it has been generated. */
export type KeySummary = {
  id: string;
  scope: KeyScope;
  display: string;
  createdAt: Date;
  activeFrom: Date;
  /** False while the activation delay runs. */
  active: boolean;
  lastUsedAt: Date | null;
};

/** A key as the pages show it after it was generated: its prefix and last four. */
export const keyDisplay = (key: { prefix: string; lastFour: string }) => `${key.prefix}…${key.lastFour}`;

const summary = (key: {
  id: string;
  scope: string;
  prefix: string;
  lastFour: string;
  createdAt: Date;
  activeFrom: Date;
  lastUsedAt: Date | null;
}): KeySummary => ({
  id: key.id,
  scope: key.scope as KeyScope,
  display: keyDisplay(key),
  createdAt: key.createdAt,
  activeFrom: key.activeFrom,
  active: key.activeFrom.getTime() <= Date.now(),
  lastUsedAt: key.lastUsedAt,
});

export async function liveKey(userId: string, scope: KeyScope): Promise<KeySummary | null> {
  const key = await db.apiKey.findFirst({ where: { userId, scope, live: true } });
  return key && summary(key);
}

/** Generates a key; the full key is returned this once and never again. */
export async function generateKey(
  userId: string,
  scope: KeyScope,
  teamId: string | null = null,
): Promise<{ key: string; summary: KeySummary }> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  if (scope === "personal" && !hasApiAccess(user.tier)) {
    throw new DomainError("forbidden", "API access requires a Pro or Business plan");
  }
  if (!user.emailVerifiedAt) throw new DomainError("forbidden", VERIFY_FIRST);
  const limit = await take(`keygen:${userId}`, keyGenerationRule);
  if (!limit.allowed) {
    countRateLimited("key_generation");
    throw new DomainError(
      "rate_limited",
      `Too many keys generated: try again in ${Math.ceil(limit.retryAfter / 60)} minute(s)`,
    );
  }
  const key = PREFIX[scope] + randomString(40);
  const now = new Date();
  try {
    const row = await db.$transaction(async (tx) => {
      const created = await tx.apiKey.create({
        data: {
          id: timeOrderedId("key"),
          userId,
          scope,
          teamId,
          hashedKey: hashKey(key),
          prefix: key.slice(0, 8),
          lastFour: key.slice(-4),
          createdAt: now,
          activeFrom: new Date(now.getTime() + env.keyActivationDelaySeconds * 1000),
          live: true,
        },
      });
      await recordActivity(keyActivity("key.generated", created, { id: userId, label: user.email }), tx);
      return created;
    });
    return { key, summary: summary(row) };
  } catch (error) {
    // The unique index (userId, scope, live) holds one live key per account and scope.
    if (isUniqueViolation(error)) {
      throw new DomainError("conflict", "You already have a live key: revoke it before generating a new one");
    }
    throw error;
  }
}

/** A key's event: on its holder's own log and, for a business key, on its team's. */
export const keyActivity = (
  action: "key.generated" | "key.revoked",
  key: { userId: string; teamId: string | null; scope: string; prefix: string; lastFour: string },
  actor: { id: string; label: string },
): ActivityInput => ({
  userId: key.userId,
  teamId: key.teamId,
  actor,
  action,
  target: keyDisplay(key),
  detail: { scope: key.scope },
});

/** Revokes a key at once. Returns false when there was no such live key. */
export async function revokeKey(keyId: string, byUserId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.apiKey.updateMany({
      where: { id: keyId, live: true },
      data: { live: null, revokedAt: new Date(), revokedById: byUserId },
    });
    if (count === 1)
      await recordActivity(
        keyActivity(
          "key.revoked",
          await tx.apiKey.findUniqueOrThrow({ where: { id: keyId } }),
          await actorOf(byUserId, tx),
        ),
        tx,
      );
    return count === 1;
  });
}

/** A key's holder as the gate admits it; `libraryVersion` changes with every change to the library's codes. */
export type Principal = Actor & { apiKeyId: string; scope: KeyScope; libraryVersion: number };

const unauthenticated = (message: string, headers?: Record<string, string>) =>
  new DomainError("unauthenticated", message, undefined, headers);
/** A key of the wrong shape or one we never issued (a key guess: see isKeyGuess). */
const invalidKey = () => new DomainError("invalid_key", "Invalid API key");

type KeyRow = {
  id: string;
  userId: string;
  teamId: string | null;
  scope: string;
  /** Epoch milliseconds (`epochMs`), null when not set. */
  revokedAt: number | null;
  activeFrom: number;
  lastUsedAt: number | null;
  userTier: string;
  memberTeamId: string | null;
  memberRole: string | null;
  teamOwnerTier: string | null;
  userLibraryVersion: number;
  teamLibraryVersion: number | null;
};

// The keys presented by the requests of one turn of the event loop, looked up in one statement
// (still one read per request, never a cached answer): the key, its owner, the owner's team and
// that team's owner, for every key at once (Prisma would send one query per relation, per key).
// On PostgreSQL each hash is looked up on its own (a LATERAL subquery that OFFSET 0 keeps from
// being flattened): the generic plan of `hashedKey IN (…)` hashed the hashes and scanned the
// whole key table, 0.47 ms for 42 hashes among 3,000 keys (and more with every key), against
// 0.23 ms for 42 index lookups. SQLite already searches the index once per hash.
const KEY_COLUMNS = (
  d: Dialect,
) => `k."hashedKey", k."id", k."userId", k."teamId", k."scope", ${epochMs(d, 'k."revokedAt"')} AS "revokedAt",
         ${epochMs(d, 'k."activeFrom"')} AS "activeFrom", ${epochMs(d, 'k."lastUsedAt"')} AS "lastUsedAt",
         u."tier" AS "userTier", m."teamId" AS "memberTeamId", m."role" AS "memberRole", o."tier" AS "teamOwnerTier",
         u."libraryVersion" AS "userLibraryVersion", t."libraryVersion" AS "teamLibraryVersion"
  FROM "ApiKey" k
  JOIN "User" u ON u."id" = k."userId"
  LEFT JOIN "Membership" m ON m."userId" = k."userId"
  LEFT JOIN "Team" t ON t."id" = m."teamId"
  LEFT JOIN "User" o ON o."id" = t."ownerId"`;
const KEY_LOOKUP = dialectSql((d) =>
  d === "sqlite"
    ? `SELECT ${KEY_COLUMNS(d)} WHERE k."hashedKey" IN (SELECT value FROM json_each(?))`
    : `SELECT found.* FROM json_array_elements_text(?::json) AS presented(hash)
       CROSS JOIN LATERAL (SELECT ${KEY_COLUMNS(d)} WHERE k."hashedKey" = presented.hash OFFSET 0) AS found`,
);
const keyLoader = processSingleton(
  "apiKeys.loader",
  () =>
    new DataLoader<string, KeyRow | undefined>(
      async (hashes) => {
        const rows = await selectRows<KeyRow & { hashedKey: string }>(KEY_LOOKUP, [JSON.stringify(hashes)]);
        const byHash = new Map(rows.map((row) => [row.hashedKey, row]));
        return hashes.map((hash) => byHash.get(hash));
      },
      // The keys of the requests that arrived in one turn, looked up at its end (setImmediate).
      ONE_TURN,
    ),
);

/** A key as presented: its hash and the scope its prefix names, before any lookup. */
export type PresentedKey = { hash: string; scope: KeyScope };

/** The header's key, if it has the shape of one of ours (no database involved). */
export function presentedKey(header: string | null): PresentedKey {
  if (header === null || header === "") throw new DomainError("missing_key", "Missing API key");
  const raw = header.trim();
  if (!KEY_PATTERN.test(raw)) throw invalidKey();
  return { hash: hashKey(raw), scope: raw.startsWith(PREFIX.business) ? "business" : "personal" };
}

/**
 * The key checks of the gate (server/api/gate.ts): lookup → revoked / not yet active → tier →
 * library. Read from the database on every request, so a revocation is seen by the very next one.
 */
export async function authenticateApiKey(presented: PresentedKey): Promise<Principal> {
  const key = await keyLoader.load(presented.hash);
  if (!key) throw invalidKey();
  if (key.revokedAt !== null) throw unauthenticated("API key has been revoked");
  const now = Date.now();
  if (key.activeFrom > now) {
    const seconds = Math.max(1, Math.ceil((key.activeFrom - now) / 1000));
    throw unauthenticated("API key is not active yet", { "Retry-After": String(seconds) });
  }

  let actor: Actor;
  let libraryVersion: number;
  if (key.scope === "personal") {
    if (!hasApiAccess(key.userTier)) throw new DomainError("forbidden", "API access requires a Pro or Business plan");
    actor = { userId: key.userId, library: { kind: "personal", userId: key.userId } };
    libraryVersion = key.userLibraryVersion;
  } else {
    // A member removed from the team (or lowered to viewer) holds no business key.
    if (!key.memberTeamId || key.memberTeamId !== key.teamId || key.memberRole === "viewer") {
      throw unauthenticated("API key has been revoked");
    }
    if (key.teamOwnerTier !== "business") {
      throw new DomainError("forbidden", "API access requires a Pro or Business plan");
    }
    actor = {
      userId: key.userId,
      library: { kind: "team", teamId: key.memberTeamId },
      role: key.memberRole as Actor["role"],
    };
    libraryVersion = key.teamLibraryVersion!;
  }

  if (key.lastUsedAt === null || now - key.lastUsedAt > LAST_USED_RESOLUTION_MS) void lastUsedWriter.load(key.id);
  return { ...actor, apiKeyId: key.id, scope: key.scope as KeyScope, libraryVersion };
}
