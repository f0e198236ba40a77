// Webhook endpoints of a library (contract: "Webhooks"): at most 10; managed by personal keys
// for their library and, in a team, by admins only; the secret is shown once, on create.
import { z } from "zod";
import { actorOf, recordActivity } from "../activity";
import { db, type Tx } from "../platform/db";
import { DomainError, notFound } from "../platform/errors";
import { timeOrderedId } from "../platform/ids";
import type { Actor } from "../library/library";
import { libraryKey } from "../library/libraryKey";
import { bodyObject, toSeconds } from "../library/validation";
import { MAX_URL_LENGTH } from "../platform/urls";
import { endpointUrlProblem } from "./address";
import { EVENT_TYPES } from "./events";
import { recordEvents } from "./outbox";
import { DELIVERED_EVENT_TYPES } from "./event-types";
import { newSecret } from "./signature";
import { sealSigningSecret } from "./signing-secret";
import { wakeDispatcher } from "./dispatcher";

export const MAX_ENDPOINTS = 10;

// The names as enums in the document; the server's own checks keep their messages.
const eventName = z.string({ error: "events must be an array of event names" }).meta({ enum: [...EVENT_TYPES] });
const eventsField = z
  .array(eventName, { error: "events must be an array of event names" })
  .min(1, "events must name at least 1 event")
  // Each name once: the list is bounded by the names there are.
  .max(EVENT_TYPES.length, `events must name each event once (at most ${EVENT_TYPES.length})`)
  .superRefine((events, ctx) => {
    const unknown = events.find((e) => !(EVENT_TYPES as readonly string[]).includes(e));
    if (unknown !== undefined) ctx.addIssue({ code: "custom", message: `Unknown event: ${unknown}` });
    else if (new Set(events).size < events.length)
      ctx.addIssue({ code: "custom", message: `events must name each event once (at most ${EVENT_TYPES.length})` });
  })
  .meta({
    description: `Event names: ${EVENT_TYPES.join(", ")}. Every endpoint also receives the \`webhook.test\` events its test route sends.`,
    uniqueItems: true,
    example: ["dynqrcode.created", "scan.created"],
  });
const urlField = z
  .string({ error: "url must be a public https URL" })
  // Refused before anything parses or resolves it.
  .max(MAX_URL_LENGTH, { error: `url must be at most ${MAX_URL_LENGTH} characters`, abort: true })
  .meta({
    description: "A public https URL (checked again, after DNS, at every delivery).",
    format: "uri",
    maxLength: 2048,
    example: "https://example.com/hooks/qr",
  });
export const MAX_DESCRIPTION_LENGTH = 500;
const descriptionField = z
  .string({ error: "description must be a string" })
  .max(MAX_DESCRIPTION_LENGTH, `description must be at most ${MAX_DESCRIPTION_LENGTH} characters`)
  .meta({ example: "Order system" });
export const webhookIdParam = z.string().meta({ description: "The webhook_id of the endpoint." });

export const webhookCreateInput = bodyObject({
  url: urlField,
  events: eventsField,
  description: descriptionField.optional(),
});
export const webhookPatchInput = bodyObject({
  webhook_id: webhookIdParam,
  url: urlField.optional(),
  events: eventsField.optional(),
  description: descriptionField.optional(),
  enabled: z.boolean({ error: "enabled must be true or false" }).optional(),
}).meta({ example: { enabled: false }, minProperties: 1 });

export const webhookRecord = z
  .object({
    webhook_id: z.string(),
    url: z.string(),
    events: z.array(z.string().meta({ enum: [...EVENT_TYPES] })),
    description: z.string(),
    enabled: z.boolean(),
    created_at: z.number().int().meta({ description: "Seconds since the epoch.", example: 1795392000 }),
    disabled_reason: z
      .string()
      .nullable()
      .meta({ description: "Why the service disabled it (5 days of failed deliveries), or null." }),
  })
  .meta({ id: "Webhook" });
export const createdWebhookRecord = webhookRecord
  .extend({
    secret: z
      .string()
      .meta({ description: "whsec_…: shown this once. Verify signatures with it (Standard Webhooks)." }),
  })
  .meta({ id: "CreatedWebhook" });

export const deliveryRecord = z
  .object({
    id: z.string(),
    event_id: z.string(),
    type: z.string().meta({ enum: [...DELIVERED_EVENT_TYPES] }),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int(),
    response_status: z.number().int().nullable(),
    last_attempt_at: z.number().int().nullable(),
    next_attempt_at: z.number().int().nullable(),
  })
  .meta({ id: "WebhookDelivery" });

type Row = {
  id: string;
  url: string;
  events: string;
  description: string;
  enabled: boolean;
  createdAt: Date;
  disabledReason: string | null;
};
export const toRecord = (row: Row): z.infer<typeof webhookRecord> => ({
  webhook_id: row.id,
  url: row.url,
  events: JSON.parse(row.events),
  description: row.description,
  enabled: row.enabled,
  created_at: toSeconds(row.createdAt),
  disabled_reason: row.disabledReason,
});

/** The endpoint's settings an entry shows before and after a change. */
const settingsOf = (row: Row, only?: string[]) => {
  const { url, events, description, enabled } = toRecord(row);
  const all = { url, events, description, enabled };
  return only ? Object.fromEntries(Object.entries(all).filter(([name]) => only.includes(name))) : all;
};

/** A team library's endpoint change, with its settings before and after, on the team's activity log (a personal library keeps none). */
async function recordWebhookChange(
  tx: Tx,
  actor: Actor,
  action: "webhook.created" | "webhook.updated" | "webhook.deleted",
  row: Row,
  change?: { changed: string[]; from: Row },
) {
  if (actor.library.kind !== "team") return;
  const [before, after] =
    action === "webhook.created"
      ? [null, settingsOf(row)]
      : action === "webhook.deleted"
        ? [settingsOf(row), null]
        : [settingsOf(change!.from, change!.changed), settingsOf(row, change!.changed)];
  const detail = { webhook_id: row.id, ...(change ? { changed: change.changed.join(", ") } : {}), before, after };
  await recordActivity(
    { teamId: actor.library.teamId, actor: await actorOf(actor.userId, tx), action, target: row.url, detail },
    tx,
  );
}

function requireManager(actor: Actor): string {
  if (actor.library.kind === "team" && actor.role !== "admin")
    throw new DomainError("forbidden", "Only a team admin can manage webhooks");
  return libraryKey(actor.library);
}

async function checkUrl(url: string): Promise<void> {
  const problem = await endpointUrlProblem(url);
  if (problem) throw new DomainError("invalid", problem);
}

export async function findEndpoint(actor: Actor, id: string) {
  const row = await db.webhookEndpoint.findFirst({ where: { id, library: requireManager(actor) } });
  if (!row) throw notFound("Webhook not found");
  return row;
}

export async function listWebhooks(actor: Actor) {
  const rows = await db.webhookEndpoint.findMany({ where: { library: requireManager(actor) }, orderBy: { id: "asc" } });
  return { webhooks: rows.map(toRecord) };
}

export async function createWebhook(actor: Actor, input: z.infer<typeof webhookCreateInput>) {
  const library = requireManager(actor);
  await checkUrl(input.url);
  const now = new Date();
  const secret = newSecret();
  const row = await db.$transaction(async (tx) => {
    if ((await tx.webhookEndpoint.count({ where: { library } })) >= MAX_ENDPOINTS)
      throw new DomainError("invalid", `A library holds at most ${MAX_ENDPOINTS} webhook endpoints`);
    const created = await tx.webhookEndpoint.create({
      data: {
        id: timeOrderedId("wh"),
        library,
        url: input.url,
        events: JSON.stringify([...new Set(input.events)]),
        description: input.description ?? "",
        secret: sealSigningSecret(secret),
        createdAt: now,
        updatedAt: now,
      },
    });
    await recordWebhookChange(tx, actor, "webhook.created", created);
    return created;
  });
  return { webhook: { ...toRecord(row), secret } };
}

export async function updateWebhook(actor: Actor, input: z.infer<typeof webhookPatchInput>) {
  const row = await findEndpoint(actor, input.webhook_id);
  const { url, events, description, enabled } = input;
  if (url === undefined && events === undefined && description === undefined && enabled === undefined)
    throw new DomainError("invalid", "Send at least one of url, events, description, enabled");
  if (url !== undefined) await checkUrl(url);
  const changed = Object.entries({ url, events, description, enabled })
    .filter(([, value]) => value !== undefined)
    .map(([field]) => field);
  const updated = await db.$transaction(async (tx) => {
    const saved = await tx.webhookEndpoint.update({
      where: { id: row.id },
      data: {
        ...(url !== undefined ? { url } : {}),
        ...(events !== undefined ? { events: JSON.stringify([...new Set(events)]) } : {}),
        ...(description !== undefined ? { description } : {}),
        // Enabling again forgets why it was disabled and how long it had been failing.
        ...(enabled !== undefined ? { enabled, ...(enabled ? { disabledReason: null, failingSince: null } : {}) } : {}),
        updatedAt: new Date(),
      },
    });
    await recordWebhookChange(tx, actor, "webhook.updated", saved, { changed, from: row });
    return saved;
  });
  return { webhook: toRecord(updated) };
}

export async function deleteWebhook(actor: Actor, id: string) {
  const row = await findEndpoint(actor, id);
  await db.$transaction(async (tx) => {
    await tx.webhookDelivery.deleteMany({ where: { endpointId: row.id } });
    await tx.webhookEndpoint.delete({ where: { id: row.id } });
    await recordWebhookChange(tx, actor, "webhook.deleted", row);
  });
  return { webhook_id: row.id, deleted: true as const };
}

/**
 * The endpoint's last 100 deliveries, newest first; with each last attempt's latency and the
 * first 1 KiB of its answer for the pages' delivery log (the /v1 record leaves those out).
 */
export async function listDeliveries(actor: Actor, id: string) {
  const row = await findEndpoint(actor, id);
  const deliveries = await db.webhookDelivery.findMany({
    where: { endpointId: row.id },
    orderBy: { id: "desc" },
    take: 100,
  });
  const events = new Map(
    (
      await db.webhookEvent.findMany({
        where: { id: { in: deliveries.map((d) => d.eventId) } },
        select: { id: true, type: true },
      })
    ).map((e) => [e.id, e.type]),
  );
  return {
    deliveries: deliveries.map((d) => ({
      id: d.id,
      event_id: d.eventId,
      type: events.get(d.eventId) ?? "unknown",
      status: d.status as "pending" | "delivered" | "failed",
      attempts: d.attempts,
      response_status: d.responseStatus,
      last_attempt_at: d.lastAttemptAt ? toSeconds(d.lastAttemptAt) : null,
      next_attempt_at: d.status === "pending" ? toSeconds(d.nextAttemptAt) : null,
      latency_ms: d.latencyMs,
      response_body: d.responseBody,
    })),
  };
}

/**
 * "Resend" on the pages: the delivery's event to its endpoint again, as a new delivery due now
 * (same webhook-id, so a receiver that keeps ids drops a duplicate); the old one stays in the log.
 * The event's `createdAt` is renewed: the outbox keeps it 30 days from its last resend, as long
 * as the new delivery (server/webhooks/outbox-cleanup.ts).
 */
export async function resendDelivery(actor: Actor, webhookId: string, deliveryId: string) {
  const row = await findEndpoint(actor, webhookId);
  if (!row.enabled) throw new DomainError("invalid", "The webhook is disabled: enable it before resending");
  const delivery = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: row.id } });
  const id = timeOrderedId("dlv");
  const renewed =
    delivery &&
    (await db.webhookEvent.updateMany({ where: { id: delivery.eventId }, data: { createdAt: new Date() } })).count;
  if (!delivery || !renewed) throw notFound("Delivery not found");
  await db.webhookDelivery.create({
    data: { id, endpointId: row.id, eventId: delivery.eventId, status: "pending", nextAttemptAt: new Date() },
  });
  wakeDispatcher();
  return { delivery_id: id };
}

/** A `webhook.test` event to this endpoint only. */
export async function sendTestEvent(actor: Actor, id: string) {
  const row = await findEndpoint(actor, id);
  if (!row.enabled) throw new DomainError("invalid", "The webhook is disabled: enable it before sending a test event");
  const { ids } = await db.$transaction((tx) =>
    recordEvents(tx, actor.library, [{ type: "webhook.test", data: { webhook_id: row.id } }], row.id),
  );
  wakeDispatcher();
  return { event_id: ids[0] };
}
