// Delivery of the outbox (contract: "Webhooks"): every instance looks for due deliveries every
// second (and at once after its own commits), claims each with a conditional update (one
// instance wins, on SQLite and PostgreSQL alike; a claim expires after 30 s, so a crashed
// instance's attempts are made by another), and POSTs one event per request, signed, with a
// 10 s timeout and no redirects followed, through a connection whose DNS answer is checked
// (address.ts). A 2xx is delivered; anything else is tried again after 5 s, 5 min, 30 min, 2 h,
// 5 h, 10 h and 10 h (× WEBHOOK_RETRY_SCALE), then failed. An endpoint whose deliveries have
// all failed for 5 days (× the same scale) is disabled, with the reason.
import { Agent, request } from "undici";
import { db } from "../db";
import { env } from "../env";
import { logError } from "../log";
import { processSingleton } from "../process-singleton";
import { guardedLookup } from "./address";
import { signatureHeaders } from "./signature";

const RETRY_DELAYS_S = [5, 300, 1800, 7200, 18000, 36000, 36000];
const DISABLE_AFTER_S = 5 * 24 * 3600;
const TIMEOUT_MS = 10_000;
const CLAIM_MS = 30_000;
const POLL_MS = 1000;
const BATCH = 50;
const KEPT_BYTES = 1024;

type State = { timer: NodeJS.Timeout | null; busy: boolean; again: boolean; agent: Agent | null; sending: Set<string> };
const state: State = processSingleton("webhooks.dispatcher", () => ({ timer: null, busy: false, again: false, agent: null, sending: new Set<string>() }));

/** Starts this instance's dispatcher (the Node server, at start). */
export function startWebhookDispatcher(): void {
  if (state.timer) return;
  state.agent = new Agent({ connect: { lookup: guardedLookup as never }, connections: 4 });
  state.timer = setInterval(() => void tick(), POLL_MS);
  state.timer.unref();
  void tick();
}

export async function stopWebhookDispatcher(): Promise<void> {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
  await state.agent?.close().catch(() => undefined);
  state.agent = null;
}

/** Looks for due deliveries now (after a commit that stored some). */
export function wakeDispatcher(): void {
  if (state.timer) void tick();
}

/**
 * Claims the due deliveries of endpoints this instance is not already sending to, and sends
 * each endpoint's in order, one request at a time, endpoints side by side: a slow endpoint
 * holds up only its own deliveries.
 */
async function tick(): Promise<void> {
  if (state.busy) {
    state.again = true;
    return;
  }
  state.busy = true;
  try {
    do {
      state.again = false;
      const now = new Date();
      const due = await db.webhookDelivery.findMany({
        where: { status: "pending", nextAttemptAt: { lte: now }, OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }], endpointId: { notIn: [...state.sending] } },
        orderBy: { nextAttemptAt: "asc" },
        take: BATCH,
      });
      const byEndpoint = new Map<string, typeof due>();
      for (const d of due) {
        // At most two of an endpoint's at a time (20 s of timeouts, within the 30 s claim).
        if ((byEndpoint.get(d.endpointId)?.length ?? 0) >= 2) continue;
        const { count } = await db.webhookDelivery.updateMany({ where: { id: d.id, status: "pending", claimedUntil: d.claimedUntil }, data: { claimedUntil: new Date(Date.now() + CLAIM_MS) } });
        if (count === 1) byEndpoint.set(d.endpointId, [...(byEndpoint.get(d.endpointId) ?? []), d]);
      }
      for (const [endpointId, list] of byEndpoint) {
        state.sending.add(endpointId);
        void (async () => {
          try {
            for (const d of list) await attempt(d.id, d.endpointId, d.eventId, d.attempts);
          } catch (error) {
            logError("webhooks.attempt_failed", { endpointId }, error);
          } finally {
            state.sending.delete(endpointId);
            wakeDispatcher();
          }
        })();
      }
      if (due.length === BATCH) state.again = true;
    } while (state.again);
  } catch (error) {
    logError("webhooks.dispatch_failed", {}, error);
  } finally {
    state.busy = false;
  }
}

/** What an attempt got: the status (null when no answer) and the first 1 KiB of the answer, or why there was none. */
async function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number | null; text: string }> {
  try {
    const res = await request(url, { method: "POST", headers, body, dispatcher: state.agent ?? undefined, signal: AbortSignal.timeout(TIMEOUT_MS) });
    let kept = Buffer.alloc(0);
    for await (const chunk of res.body) {
      kept = Buffer.concat([kept, chunk as Buffer]);
      if (kept.length >= KEPT_BYTES) break;
    }
    res.body.destroy();
    return { status: res.statusCode, text: kept.subarray(0, KEPT_BYTES).toString("utf8") };
  } catch (error) {
    const e = error as Error & { code?: string; cause?: { code?: string; message?: string } };
    const reason = e.name === "TimeoutError" || e.name === "AbortError" ? `no answer within ${TIMEOUT_MS / 1000} s` : (e.cause?.message ?? e.message);
    return { status: null, text: reason.slice(0, KEPT_BYTES) };
  }
}

async function attempt(id: string, endpointId: string, eventId: string, attemptsBefore: number): Promise<void> {
  const [endpoint, event] = await Promise.all([db.webhookEndpoint.findUnique({ where: { id: endpointId } }), db.webhookEvent.findUnique({ where: { id: eventId } })]);
  if (!endpoint || !event) {
    await db.webhookDelivery.deleteMany({ where: { id } });
    return;
  }
  if (!endpoint.enabled) {
    await db.webhookDelivery.update({ where: { id }, data: { status: "failed", responseBody: "the endpoint is disabled", claimedUntil: null } });
    return;
  }
  const started = Date.now();
  const headers = { "content-type": "application/json", "user-agent": "QR-Records-Webhooks/1.0", ...signatureHeaders(endpoint.secret, event.id, event.payload, Math.floor(started / 1000)) };
  const answer = await post(endpoint.url, headers, event.payload);
  const now = new Date();
  const attempts = attemptsBefore + 1;
  const delivered = answer.status !== null && answer.status >= 200 && answer.status < 300;
  const last = !delivered && attempts > RETRY_DELAYS_S.length;
  await db.webhookDelivery.update({
    where: { id },
    data: {
      status: delivered ? "delivered" : last ? "failed" : "pending",
      attempts,
      responseStatus: answer.status,
      responseBody: answer.text,
      latencyMs: now.getTime() - started,
      lastAttemptAt: now,
      nextAttemptAt: delivered || last ? now : new Date(now.getTime() + RETRY_DELAYS_S[attempts - 1] * env.webhookRetryScale * 1000),
      claimedUntil: null,
    },
  });
  if (delivered) {
    if (endpoint.failingSince) await db.webhookEndpoint.update({ where: { id: endpointId }, data: { failingSince: null } });
    return;
  }
  if (!endpoint.failingSince) {
    await db.webhookEndpoint.updateMany({ where: { id: endpointId, failingSince: null }, data: { failingSince: now } });
  } else if (now.getTime() - endpoint.failingSince.getTime() >= DISABLE_AFTER_S * env.webhookRetryScale * 1000) {
    const reason = `Every delivery failed since ${endpoint.failingSince.toISOString().replace(/\.\d{3}Z$/, "Z")}`;
    await db.webhookEndpoint.update({ where: { id: endpointId }, data: { enabled: false, disabledReason: reason, updatedAt: now } });
  }
}
