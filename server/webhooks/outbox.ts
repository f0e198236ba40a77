// The outbox's rows, written here only: an event is stored in the same transaction as the change
// (or the scans) it reports, with one delivery per enabled endpoint of the library that
// subscribes to it, so a change that rolls back sends nothing and a committed one is delivered
// even after a crash (the dispatcher reads the deliveries from the database). A library without
// a subscribed endpoint stores nothing. Two writers: a change, through Prisma in its transaction
// (recordEvents), and a batch of scans, in the scan writer's driver-level transaction
// (recordScanCreated); both make their rows with outboxRows.
import { dialectSql, insertEach, storedTime, type RunEach, type Tx } from "../platform/db";
import type { Library } from "../library/library";
import { libraryKey, libraryKeySql } from "../library/libraryKey";
import { timeOrderedId } from "../platform/ids";
import { outboxEvent, type PendingEvent, type ScanCreated } from "./payload";

/** An event's row and a pending delivery for each endpoint. */
function outboxRows(event: PendingEvent, library: string, endpointIds: string[], at: number) {
  const { id, payload } = outboxEvent(event, at);
  return {
    event: { id, library, type: event.type, payload },
    deliveries: endpointIds.map((endpointId) => ({
      id: timeOrderedId("dlv"),
      endpointId,
      eventId: id,
      status: "pending",
    })),
  };
}

/**
 * Stores `events` of `library` and their deliveries in the caller's transaction; `only` limits
 * them to one endpoint (a test event). Returns the events' ids and whether any delivery was stored.
 */
export async function recordEvents(
  tx: Tx,
  library: Library,
  events: PendingEvent[],
  only?: string,
): Promise<{ ids: string[]; stored: boolean }> {
  if (events.length === 0) return { ids: [], stored: false };
  const key = libraryKey(library);
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { library: key, enabled: true, ...(only ? { id: only } : {}) },
    select: { id: true, events: true },
  });
  const subscribed = endpoints.map((e) => ({ id: e.id, events: new Set(JSON.parse(e.events) as string[]) }));
  const now = new Date();
  const ids: string[] = [];
  const rows: { id: string; library: string; type: string; payload: string; createdAt: Date }[] = [];
  const deliveries: { id: string; endpointId: string; eventId: string; status: string; nextAttemptAt: Date }[] = [];
  for (const event of events) {
    const targets = subscribed.filter((e) => only || e.events.has(event.type));
    if (targets.length === 0) continue;
    const made = outboxRows(
      event,
      key,
      targets.map((t) => t.id),
      now.getTime(),
    );
    ids.push(made.event.id);
    rows.push({ ...made.event, createdAt: now });
    for (const delivery of made.deliveries) deliveries.push({ ...delivery, nextAttemptAt: now });
  }
  if (rows.length > 0) {
    await tx.webhookEvent.createMany({ data: rows });
    await tx.webhookDelivery.createMany({ data: deliveries });
  }
  return { ids, stored: deliveries.length > 0 };
}

/** What `scan.created` says of a scan, as the scan writer's rows hold it. */
type StoredScan = {
  dynamicCodeId: string;
  scannedAt: string;
  country: string;
  device: string;
  os: string;
  browser: string;
  unique: number;
};
type Subscriber = { dynamicCodeId: string; code: string; endpointId: string; library: string };

/**
 * A batch's `scan.created` events (contract: "Webhooks"), in its transaction: one event per
 * scan of a code whose library has an enabled endpoint subscribed to them, and one delivery per
 * such endpoint. One statement finds them for the whole batch; a batch of codes nobody
 * subscribed to stores nothing more. The dispatcher finds the deliveries within a second:
 * nothing here waits for it, so a redirect never does.
 */
export async function recordScanCreated(runEach: RunEach, scans: StoredScan[]): Promise<void> {
  const codeIds = [...new Set(scans.map((s) => s.dynamicCodeId))];
  const subscribers = (await runEach(SQL.subscribers, [[JSON.stringify(codeIds)]])) as Subscriber[];
  if (subscribers.length === 0) return;
  const byCode = new Map<string, Subscriber[]>();
  for (const s of subscribers) byCode.set(s.dynamicCodeId, [...(byCode.get(s.dynamicCodeId) ?? []), s]);
  const at = Date.now();
  const now = storedTime(at);
  const events: unknown[][] = [];
  const deliveries: unknown[][] = [];
  for (const scan of scans) {
    const targets = byCode.get(scan.dynamicCodeId);
    if (!targets) continue;
    // Epoch seconds, as every time in JSON (README, "Timestamps").
    const data: ScanCreated = {
      code: targets[0].code,
      scanned_at: Math.floor(Date.parse(scan.scannedAt) / 1000),
      country: scan.country,
      device: scan.device,
      os: scan.os,
      browser: scan.browser,
      unique: scan.unique === 1,
    };
    const made = outboxRows(
      { type: "scan.created", data },
      targets[0].library,
      targets.map((t) => t.endpointId),
      at,
    );
    events.push([made.event.id, made.event.library, made.event.type, made.event.payload, now]);
    for (const d of made.deliveries) deliveries.push([d.id, d.endpointId, d.eventId, d.status, 0, now]);
  }
  await runEach(SQL.events, events);
  await runEach(SQL.deliveries, deliveries);
}

// Bound as the scan writer binds its rows (RunEach in server/platform/db.ts).
const SQL = {
  // The enabled endpoints subscribed to scan.created of each code's library, for a JSON array of code ids in one parameter.
  subscribers: dialectSql((dialect) => {
    const ids = dialect === "sqlite" ? `json_each(?)` : `jsonb_array_elements_text((?::jsonb -> 0 ->> 0)::jsonb)`;
    return `SELECT d."id" AS "dynamicCodeId", d."code" AS "code", w."id" AS "endpointId", w."library" AS "library"
      FROM ${ids} AS j JOIN "DynamicCode" d ON d."id" = j.value
      JOIN "WebhookEndpoint" w ON w."library" = ${libraryKeySql("d")}
      WHERE w."enabled" AND w."events" LIKE '%"scan.created"%'`;
  }),
  events: insertEach("WebhookEvent", ["id", "library", "type", "payload", "createdAt"], { createdAt: "timestamp(3)" }),
  deliveries: insertEach("WebhookDelivery", ["id", "endpointId", "eventId", "status", "attempts", "nextAttemptAt"], {
    attempts: "integer",
    nextAttemptAt: "timestamp(3)",
  }),
};
