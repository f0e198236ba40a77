// The outbox: an event is written in the same transaction as the change it reports, with one
// delivery per enabled endpoint of the library that subscribes to it, so a change that rolls
// back sends nothing and a committed one is delivered even after a crash (the dispatcher reads
// the deliveries from the database). A library without a subscribed endpoint stores nothing.
import { db, type Tx } from "../db";
import { timeOrderedId } from "../ids";
import { libraryKey, type Library } from "../domain/library";
import { wakeDispatcher } from "./dispatcher";
import { outboxEvent, type PendingEvent } from "./payload";

import { EVENT_TYPES } from "./event-types";

export { EVENT_TYPES };
export type { EventType, PendingEvent } from "./payload";

/**
 * Stores `events` of `library` and their deliveries in the caller's transaction; `only` limits
 * them to one endpoint (a test event). Returns the events' ids and whether any delivery was stored.
 */
export async function recordEvents(tx: Tx, library: Library, events: PendingEvent[], only?: string): Promise<{ ids: string[]; stored: boolean }> {
  if (events.length === 0) return { ids: [], stored: false };
  const key = libraryKey(library);
  const endpoints = await tx.webhookEndpoint.findMany({ where: { library: key, enabled: true, ...(only ? { id: only } : {}) }, select: { id: true, events: true } });
  const subscribed = endpoints.map((e) => ({ id: e.id, events: new Set(JSON.parse(e.events) as string[]) }));
  const now = new Date();
  const ids: string[] = [];
  const deliveries: { id: string; endpointId: string; eventId: string; status: string; nextAttemptAt: Date }[] = [];
  const rows: { id: string; library: string; type: string; payload: string; createdAt: Date }[] = [];
  for (const event of events) {
    const targets = subscribed.filter((e) => only || e.events.has(event.type));
    if (targets.length === 0) continue;
    const { id, payload } = outboxEvent(event, now);
    ids.push(id);
    rows.push({ id, library: key, type: event.type, payload, createdAt: now });
    for (const endpoint of targets) deliveries.push({ id: timeOrderedId("dlv"), endpointId: endpoint.id, eventId: id, status: "pending", nextAttemptAt: now });
  }
  if (rows.length > 0) {
    await tx.webhookEvent.createMany({ data: rows });
    await tx.webhookDelivery.createMany({ data: deliveries });
  }
  return { ids, stored: deliveries.length > 0 };
}

/**
 * A change of `library` and the events that report it, in one transaction; this instance's
 * dispatcher is woken once it commits (the others find the deliveries within a second).
 */
export async function changeWithEvents<T>(library: Library, work: (tx: Tx) => Promise<{ result: T; events: PendingEvent[] }>): Promise<T> {
  let stored = false;
  const result = await db.$transaction(async (tx) => {
    const done = await work(tx);
    stored = (await recordEvents(tx, library, done.events)).stored;
    return done.result;
  });
  if (stored) wakeDispatcher();
  return result;
}
