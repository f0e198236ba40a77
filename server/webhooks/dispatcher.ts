// Delivery of the outbox (contract: "Webhooks"): every instance looks for due deliveries every
// second (and at once after its own commits) and runs one lane per endpoint that has some. A
// lane claims up to CLAIM_BATCH of its endpoint's due deliveries with one conditional update
// (delivery-rows.ts; a claim token and a deadline: one instance wins each row, on SQLite and PostgreSQL alike; a
// claim expires after CLAIM_MS, so a crashed instance's attempts are made by another), POSTs
// them one event per request, at most PER_ENDPOINT at a time, none started later than
// START_WITHIN_MS after the claim (the rest go back), signed, with a 10 s timeout and no
// redirects followed, through a connection whose address is checked (address.ts), and writes
// their outcomes in one transaction. A 2xx is delivered; anything else is tried again after 5 s,
// 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (× WEBHOOK_RETRY_SCALE), then failed. An endpoint whose
// deliveries have all failed for 5 days (× the same scale) is disabled, with the reason.
// Delivered and failed events are removed from the outbox 30 days after they were stored
// (outbox-cleanup.ts).
import { Agent, request } from "undici";
import { nowMs } from "../platform/clock";
import { db, selectRows, storedTime, type DialectSql } from "../platform/db";
import { env } from "../platform/env";
import { logError } from "../platform/log";
import { processSingleton } from "../platform/process-singleton";
import { isoSeconds } from "../platform/timestamps";
import { configuredPolicy, guardedConnector } from "./address";
import { CLAIM_MS, claimDue, recordOutcomes, type Outcome } from "./delivery-rows";
import { cleanOutbox } from "./outbox-cleanup";
import { signatureHeaders } from "./signature";
import { openSigningSecret } from "./signing-secret";

const DISABLE_AFTER_S = 5 * 24 * 3600;
const TIMEOUT_MS = 10_000;
const POLL_MS = 1000;
/** Requests in flight to one endpoint, from one instance. */
const PER_ENDPOINT = 10;
/** No request starts later than this after its claim, so that each ends within the claim; the rest go back. */
const START_WITHIN_MS = CLAIM_MS - TIMEOUT_MS - 3000;
const KEPT_BYTES = 1024;
const CLEAN_EVERY_MS = 3600 * 1000;
const UNREADABLE_SECRET = "Its signing secret cannot be read (NEXTAUTH_SECRET changed): create the webhook again";

type State = {
  timer: NodeJS.Timeout | null;
  cleaner: NodeJS.Timeout | null;
  busy: boolean;
  again: boolean;
  agent: Agent | null;
  /** Each endpoint's lane here, until it ends. */
  lanes: Map<string, Promise<void>>;
  /** Where a wake goes when the dispatcher runs on the background thread (server/http/background-thread.ts). */
  wakeThread: (() => void) | null;
  /** How busy the thread that answers requests is, 0 to 1 (server/http/background-thread.ts tells; 0 when unknown). */
  requestsBusy: () => number;
};
const state: State = processSingleton("webhooks.dispatcher", () => ({
  timer: null,
  cleaner: null,
  busy: false,
  again: false,
  agent: null,
  lanes: new Map<string, Promise<void>>(),
  wakeThread: null,
  requestsBusy: () => 0,
}));

/** Starts delivering in this thread, with the outbox's hourly clean-up (the background thread, at start). */
export function startDelivering(): void {
  if (state.timer) return;
  state.agent = new Agent({ connect: guardedConnector(configuredPolicy()), connections: PER_ENDPOINT });
  state.timer = setInterval(() => void tick(), POLL_MS);
  state.timer.unref();
  state.cleaner = setInterval(
    () => void cleanOutbox().catch((error) => logError("webhooks.clean_failed", {}, error)),
    CLEAN_EVERY_MS,
  );
  state.cleaner.unref();
  void tick();
}

/**
 * Stops it here: no claim and no request starts any more. Resolves once the requests in flight
 * have ended and their outcomes are recorded (a stop waits for that, within its bound: an
 * attempt left unrecorded would be made again once its claim expires).
 */
export async function stopDelivering(): Promise<void> {
  if (state.timer) clearInterval(state.timer);
  if (state.cleaner) clearInterval(state.cleaner);
  state.timer = state.cleaner = null;
  await Promise.all(state.lanes.values());
  await state.agent?.close().catch(() => undefined);
  state.agent = null;
}

/** Looks for due deliveries now (after a commit that stored some), here or on the background thread. */
export function wakeDispatcher(): void {
  if (state.timer) void tick();
  else state.wakeThread?.();
}

/** Where the background thread reads how busy the main thread is (server/http/background-thread.ts). */
export function paceBy(requestsBusy: () => number): void {
  state.requestsBusy = requestsBusy;
}

/** The main thread's wakes go to the background thread (server/http/background-thread.ts). */
export function sendWakesTo(wake: (() => void) | null): void {
  state.wakeThread = wake;
}

/**
 * The endpoints with due deliveries that nobody holds: [now, now]. One probe of the claim's
 * index per endpoint, so its cost follows the number of endpoints, not the backlog (Prisma's
 * `distinct` fetched every due row and kept one per endpoint itself: 50,000 rows a second).
 */
const DUE_ENDPOINTS: DialectSql = {
  sqlite: `SELECT "id" AS "endpointId" FROM "WebhookEndpoint" AS e WHERE EXISTS (SELECT 1 FROM "WebhookDelivery" AS d
    WHERE d."endpointId" = e."id" AND d."status" = 'pending' AND d."nextAttemptAt" <= ? AND (d."claimedUntil" IS NULL OR d."claimedUntil" < ?)) LIMIT 200`,
  postgres: `SELECT "id" AS "endpointId" FROM "WebhookEndpoint" AS e WHERE EXISTS (SELECT 1 FROM "WebhookDelivery" AS d
    WHERE d."endpointId" = e."id" AND d."status" = 'pending' AND d."nextAttemptAt" <= $1::timestamp(3) AND (d."claimedUntil" IS NULL OR d."claimedUntil" < $2::timestamp(3))) LIMIT 200`,
};

/** Starts a lane for each endpoint with due deliveries that has none here yet. */
async function tick(): Promise<void> {
  if (state.busy) {
    state.again = true;
    return;
  }
  state.busy = true;
  try {
    do {
      state.again = false;
      const now = storedTime(Date.now());
      const due = await selectRows<{ endpointId: string }>(DUE_ENDPOINTS, [now, now]);
      for (const { endpointId } of due) if (!state.lanes.has(endpointId)) startLane(endpointId);
    } while (state.again);
  } catch (error) {
    logError("webhooks.dispatch_failed", {}, error);
  } finally {
    state.busy = false;
  }
}

/**
 * How long a lane rests after a batch, in multiples of the batch's time, by how busy the thread
 * that answers requests is (0 to 1): redirects come first (contract: "Scans are never slowed by
 * webhooks"). A quarter while it has room (on PostgreSQL here: some 5,000 deliveries a second,
 * p99 scan → delivery 1 s at 2,000 scans a second), rising to twenty times once it is saturated:
 * deliveries then go on at a few hundred a second and the backlog drains when the load passes.
 */
function restFactor(busy: number): number {
  return busy <= 0.5 ? 0.25 : busy >= 0.9 ? 20 : 0.25 + ((busy - 0.5) / 0.4) * 19.75;
}

/** An endpoint's deliveries, claim after claim until none is due: a slow endpoint holds up only its own. */
function startLane(endpointId: string): void {
  // Removed in a later turn (a promise's reaction), so always after it was added.
  state.lanes.set(
    endpointId,
    deliverWhileDue(endpointId).finally(() => state.lanes.delete(endpointId)),
  );
}

async function deliverWhileDue(endpointId: string): Promise<void> {
  try {
    // Once stopped (state.timer), no rest before ending: a stop waits for the lanes.
    while (state.timer) {
      const started = Date.now();
      if (!(await deliverBatch(endpointId)) || !state.timer) break;
      await new Promise((r) =>
        setTimeout(r, Math.min(1000, (Date.now() - started) * restFactor(state.requestsBusy()))),
      );
    }
  } catch (error) {
    logError("webhooks.attempt_failed", { endpointId }, error);
  }
}

/** Claims, sends and records one batch of an endpoint's due deliveries; false when none was due. */
async function deliverBatch(endpointId: string): Promise<boolean> {
  const now = new Date();
  const claimedAt = Date.now();
  const claimed = await claimDue(endpointId, now);
  if (claimed.length === 0) return false;
  const claimedIds = claimed.map((d) => d.id);
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: endpointId } });
  if (!endpoint) {
    await db.webhookDelivery.deleteMany({ where: { endpointId, id: { in: claimedIds } } });
    return true;
  }
  const secret = openSigningSecret(endpoint.secret);
  const secrets = secret === null ? [] : [secret, ...previousSecret(endpoint)];
  if (!endpoint.enabled || secret === null) {
    // Sealed under another NEXTAUTH_SECRET: nothing can be signed, and only a new endpoint has a secret its owner knows.
    if (endpoint.enabled)
      await db.webhookEndpoint.update({
        where: { id: endpoint.id },
        data: { enabled: false, disabledReason: UNREADABLE_SECRET, updatedAt: now },
      });
    await db.webhookDelivery.updateMany({
      where: { endpointId, id: { in: claimedIds } },
      data: { status: "failed", responseBody: "the endpoint is disabled", claimedUntil: null, claimedBy: null },
    });
    return true;
  }
  const outcomes: Outcome[] = [];
  let next = 0;
  const sendNext = async (): Promise<void> => {
    // Once stopped (state.timer), none starts: its thread goes on writing scans, and the rest go back.
    while (state.timer && next < claimed.length && Date.now() - claimedAt < START_WITHIN_MS) {
      const delivery = claimed[next++];
      if (delivery.payload === null) continue;
      const started = Date.now();
      const headers = {
        "content-type": "application/json",
        "user-agent": "QR-Records-Webhooks/1.0",
        ...signatureHeaders(secrets, delivery.eventId, delivery.payload, Math.floor(started / 1000)),
      };
      const answer = await post(endpoint.url, headers, delivery.payload);
      const at = new Date();
      const delivered = answer.status !== null && answer.status >= 200 && answer.status < 300;
      outcomes.push({
        id: delivery.id,
        attempts: delivery.attempts + 1,
        delivered,
        status: answer.status,
        text: answer.text,
        latencyMs: at.getTime() - started,
        at,
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PER_ENDPOINT, claimed.length) }, sendNext));
  const orphans = claimed.filter((d) => d.payload === null).map((d) => d.id);
  const unsent = claimed.slice(next).map((d) => d.id);
  await recordOutcomes(endpointId, outcomes);
  if (unsent.length > 0)
    await db.webhookDelivery.updateMany({
      where: { endpointId, id: { in: unsent } },
      data: { claimedUntil: null, claimedBy: null },
    });
  if (orphans.length > 0) await db.webhookDelivery.deleteMany({ where: { endpointId, id: { in: orphans } } });
  await noteHealth(
    endpoint,
    outcomes.some((o) => o.delivered),
    outcomes.length > 0 ? outcomes[outcomes.length - 1].at : now,
  );
  return true;
}

/** The secret before a rotation, while its overlap lasts (server/webhooks/secret-rotation.ts): its signature is sent too. */
function previousSecret(endpoint: { previousSecret: string | null; previousSecretUntil: Date | null }): string[] {
  if (endpoint.previousSecret === null || !endpoint.previousSecretUntil) return [];
  if (endpoint.previousSecretUntil.getTime() <= nowMs()) return [];
  const opened = openSigningSecret(endpoint.previousSecret);
  return opened === null ? [] : [opened];
}

/** Any success clears the endpoint's failing streak; 5 days of nothing but failures disables it. */
async function noteHealth(
  endpoint: { id: string; failingSince: Date | null },
  anyDelivered: boolean,
  now: Date,
): Promise<void> {
  if (anyDelivered) {
    if (endpoint.failingSince)
      await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failingSince: null } });
  } else if (!endpoint.failingSince) {
    await db.webhookEndpoint.updateMany({
      where: { id: endpoint.id, failingSince: null },
      data: { failingSince: now },
    });
  } else if (now.getTime() - endpoint.failingSince.getTime() >= DISABLE_AFTER_S * env.webhookRetryScale * 1000) {
    const reason = `Every delivery failed since ${isoSeconds(endpoint.failingSince)}`;
    await db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { enabled: false, disabledReason: reason, updatedAt: now },
    });
  }
}

/** What an attempt got: the status (null when no answer) and the first 1 KiB of the answer, or why there was none. */
async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number | null; text: string }> {
  try {
    const res = await request(url, {
      method: "POST",
      headers,
      body,
      dispatcher: state.agent ?? undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    let kept = Buffer.alloc(0);
    for await (const chunk of res.body) {
      kept = Buffer.concat([kept, chunk as Buffer]);
      if (kept.length >= KEPT_BYTES) break;
    }
    res.body.destroy();
    return { status: res.statusCode, text: kept.subarray(0, KEPT_BYTES).toString("utf8") };
  } catch (error) {
    const e = error as Error & { code?: string; cause?: { code?: string; message?: string } };
    const reason =
      e.name === "TimeoutError" || e.name === "AbortError"
        ? `no answer within ${TIMEOUT_MS / 1000} s`
        : (e.cause?.message ?? e.message);
    return { status: null, text: reason.slice(0, KEPT_BYTES) };
  }
}
