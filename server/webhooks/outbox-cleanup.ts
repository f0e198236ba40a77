// The outbox's clean-up (contract "Webhooks"): delivered and failed events are removed 30 days
// after they were stored. The dispatcher runs it hourly (server/webhooks/dispatcher.ts).
import { db } from "../platform/db";
import { firstIdAt } from "../platform/ids";

const KEEP_EVENTS_MS = 30 * 24 * 3600 * 1000;

/**
 * Removes what was stored more than 30 days before `now`, a thousand rows at a time: finished
 * deliveries by their time-ordered ids, then events (by `createdAt`, which a resend renews) for
 * which no attempt waits. There is no index by event (each scan with a subscriber would pay for
 * it): a delivery is written in its event's transaction or by a resend that renews the event, so
 * the deliveries' bound, a minute later than the events', leaves none of a removed event behind.
 * Returns how many events went.
 */
export async function cleanOutbox(now = new Date()): Promise<number> {
  const before = now.getTime() - KEEP_EVENTS_MS;
  const endpointIds = (await db.webhookEndpoint.findMany({ select: { id: true } })).map((e) => e.id);
  for (const endpointId of endpointIds) {
    for (;;) {
      const done = await db.webhookDelivery.findMany({
        where: { endpointId, id: { lt: firstIdAt("dlv", before + 60_000) }, status: { not: "pending" } },
        select: { id: true },
        take: 1000,
      });
      if (done.length > 0)
        await db.webhookDelivery.deleteMany({ where: { endpointId, id: { in: done.map((d) => d.id) } } });
      if (done.length < 1000) break;
    }
  }
  let removed = 0;
  for (let after = ""; ;) {
    const old = await db.webhookEvent.findMany({
      where: { id: { gt: after }, createdAt: { lt: new Date(before) } },
      select: { id: true },
      orderBy: { id: "asc" },
      take: 1000,
    });
    if (old.length === 0) return removed;
    after = old[old.length - 1].id;
    // Pending deliveries through the claim's index (endpoint, status): as many as the backlog.
    const waiting = await db.webhookDelivery.findMany({
      where: { endpointId: { in: endpointIds }, status: "pending", eventId: { in: old.map((e) => e.id) } },
      select: { eventId: true },
    });
    const kept = new Set(waiting.map((d) => d.eventId));
    const ids = old.map((e) => e.id).filter((id) => !kept.has(id));
    if (ids.length > 0) await db.webhookEvent.deleteMany({ where: { id: { in: ids } } });
    removed += ids.length;
  }
}
