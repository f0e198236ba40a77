// A delivery attempt's two writes (server/webhooks/dispatcher.ts): the claim, which reads the
// events too, and the outcomes with the next attempt's time. Each is one statement through the
// driver: Prisma's four calls for a claim took 30 to 100 ms on PostgreSQL, its outcomes 50 to
// 200 ms for 100.
import { randomUUID } from "node:crypto";
import { storedTime, writeTransaction, type DialectSql } from "../platform/db";
import { env } from "../platform/env";

/** Seconds before each retry (× WEBHOOK_RETRY_SCALE); after the last, the delivery has failed. */
const RETRY_DELAYS_S = [5, 300, 1800, 7200, 18000, 36000, 36000];
/** Deliveries one claim takes (a fast receiver takes a batch in a few tens of milliseconds). */
const CLAIM_BATCH = 100;
/** How long a claim holds: also how long a crashed instance's claimed deliveries wait for another. */
export const CLAIM_MS = 25_000;

export type ClaimedDelivery = {
  id: string;
  eventId: string;
  attempts: number;
  /** Null when the event was removed (the outbox's clean-up): its delivery row goes too. */
  payload: string | null;
};

/** What one attempt got. */
export type Outcome = {
  id: string;
  attempts: number;
  delivered: boolean;
  status: number | null;
  text: string;
  latencyMs: number;
  at: Date;
};

/** Claims up to CLAIM_BATCH of the endpoint's due deliveries for this instance, oldest id first. */
export async function claimDue(endpointId: string, now: Date): Promise<ClaimedDelivery[]> {
  const claimed = (await writeTransaction(
    (runEach) =>
      runEach(CLAIM, [
        [
          storedTime(now.getTime() + CLAIM_MS),
          randomUUID(),
          endpointId,
          storedTime(now.getTime()),
          storedTime(now.getTime()),
        ],
      ]),
    NOT_DURABLE,
  )) as ClaimedDelivery[];
  return claimed.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The attempts' outcomes, their claims released: delivered, tried again later, or failed after the last retry. */
export async function recordOutcomes(endpointId: string, outcomes: Outcome[]): Promise<void> {
  await writeTransaction(
    (runEach) =>
      runEach(
        OUTCOMES,
        outcomes.map((o) => {
          const last = !o.delivered && o.attempts > RETRY_DELAYS_S.length;
          const nextAt =
            o.delivered || last
              ? o.at.getTime()
              : o.at.getTime() + RETRY_DELAYS_S[o.attempts - 1] * env.webhookRetryScale * 1000;
          return [
            o.delivered ? "delivered" : last ? "failed" : "pending",
            o.attempts,
            o.status,
            o.text,
            o.latencyMs,
            storedTime(o.at.getTime()),
            storedTime(nextAt),
            endpointId,
            o.id,
          ];
        }),
      ),
    NOT_DURABLE,
  );
}

/** A claimed delivery's event payload, read by the claim itself (null once the event is removed). */
const PAYLOAD = `(SELECT e."payload" FROM "WebhookEvent" AS e WHERE e."id" = "WebhookDelivery"."eventId") AS "payload"`;

/**
 * Claims and outcomes may be undone by a crash of the database machine (asynchronous commit on
 * PostgreSQL): the deliveries are then made again, as at-least-once delivery allows.
 */
const NOT_DURABLE = { durable: false };

/**
 * Claims up to CLAIM_BATCH due deliveries of an endpoint that nobody holds: [claimedUntil,
 * claimedBy, endpointId, now, now]. On PostgreSQL the rows another instance is claiming at the same
 * moment are skipped (SKIP LOCKED); SQLite has one writer at a time.
 */
const CLAIM: DialectSql = {
  sqlite: `UPDATE "WebhookDelivery" SET "claimedUntil" = ?, "claimedBy" = ? WHERE ("endpointId", "id") IN (
    SELECT "endpointId", "id" FROM "WebhookDelivery" WHERE "endpointId" = ? AND "status" = 'pending' AND "nextAttemptAt" <= ? AND ("claimedUntil" IS NULL OR "claimedUntil" < ?)
    ORDER BY "nextAttemptAt" LIMIT ${CLAIM_BATCH}) RETURNING "id", "eventId", "attempts", ${PAYLOAD}`,
  postgres: `UPDATE "WebhookDelivery" SET "claimedUntil" = ($1::jsonb -> 0 ->> 0)::timestamp(3), "claimedBy" = $1::jsonb -> 0 ->> 1 WHERE ("endpointId", "id") IN (
    SELECT "endpointId", "id" FROM "WebhookDelivery" WHERE "endpointId" = $1::jsonb -> 0 ->> 2 AND "status" = 'pending' AND "nextAttemptAt" <= ($1::jsonb -> 0 ->> 3)::timestamp(3)
      AND ("claimedUntil" IS NULL OR "claimedUntil" < ($1::jsonb -> 0 ->> 3)::timestamp(3))
    ORDER BY "nextAttemptAt" LIMIT ${CLAIM_BATCH} FOR UPDATE SKIP LOCKED) RETURNING "id", "eventId", "attempts", ${PAYLOAD}`,
};

/** A delivery's attempt recorded, its claim released: [status, attempts, responseStatus, responseBody, latencyMs, lastAttemptAt, nextAttemptAt, endpointId, id]. */
const OUTCOMES: DialectSql = {
  sqlite: `UPDATE "WebhookDelivery" SET "status" = ?, "attempts" = ?, "responseStatus" = ?, "responseBody" = ?, "latencyMs" = ?, "lastAttemptAt" = ?, "nextAttemptAt" = ?,
    "claimedUntil" = NULL, "claimedBy" = NULL WHERE "endpointId" = ? AND "id" = ?`,
  postgres: `UPDATE "WebhookDelivery" AS d SET "status" = e ->> 0, "attempts" = (e ->> 1)::integer, "responseStatus" = (e ->> 2)::integer, "responseBody" = e ->> 3,
    "latencyMs" = (e ->> 4)::integer, "lastAttemptAt" = (e ->> 5)::timestamp(3), "nextAttemptAt" = (e ->> 6)::timestamp(3), "claimedUntil" = NULL, "claimedBy" = NULL
    FROM jsonb_array_elements($1::jsonb) AS e WHERE d."endpointId" = e ->> 7 AND d."id" = e ->> 8`,
};
