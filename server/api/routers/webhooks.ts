// /v1/webhooks: the library's webhook endpoints and their deliveries (contract: "Webhooks"); and
// the same for the web pages (/profile for the personal library, /business for the team's),
// through the same domain functions, plus "Resend" of one delivery.
import { z } from "zod";
import { actorFor, libraryKindField } from "../../library/libraryItems";
import {
  createdWebhookRecord,
  createWebhook,
  deleteWebhook,
  deliveryRecord,
  listDeliveries,
  listWebhooks,
  resendDelivery,
  rotateSigningSecret,
  sendTestEvent,
  updateWebhook,
  webhookCreateInput,
  webhookIdParam,
  webhookPatchInput,
  webhookRecord,
} from "../../webhooks";
import { apiKeyProcedure, createTRPCRouter, sessionProcedure } from "../trpc";

const TAGS = ["Webhooks"];
const byId = z.object({ webhook_id: webhookIdParam });
const byDelivery = byId.extend({
  delivery_id: z.string().meta({ description: "The id of one of the endpoint's deliveries (its delivery log)." }),
});

export const webhooksRouter = createTRPCRouter({
  list: apiKeyProcedure
    .meta({
      openapi: { method: "GET", path: "/webhooks", tags: TAGS, summary: "List the library's webhook endpoints" },
    })
    .input(z.object({}))
    .output(z.object({ webhooks: z.array(webhookRecord) }))
    .query(({ ctx }) => listWebhooks(ctx.principal)),

  create: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/webhooks",
        tags: TAGS,
        summary: "Add a webhook endpoint (its secret is shown this once)",
        successDescription: "Created",
      },
      created: true,
    })
    .input(webhookCreateInput)
    .output(z.object({ webhook: createdWebhookRecord }))
    .mutation(({ ctx, input }) => createWebhook(ctx.principal, input)),

  update: apiKeyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/webhooks/{webhook_id}",
        tags: TAGS,
        summary: "Change url, events, description or enabled",
      },
    })
    .input(webhookPatchInput)
    .output(z.object({ webhook: webhookRecord }))
    .mutation(({ ctx, input }) => updateWebhook(ctx.principal, input)),

  remove: apiKeyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/webhooks/{webhook_id}",
        tags: TAGS,
        summary: "Delete a webhook endpoint and its deliveries",
      },
    })
    .input(byId)
    .output(z.object({ webhook_id: z.string(), deleted: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteWebhook(ctx.principal, input.webhook_id)),

  deliveries: apiKeyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/webhooks/{webhook_id}/deliveries",
        tags: TAGS,
        summary: "The endpoint's last 100 deliveries, newest first",
      },
    })
    .input(byId)
    .output(z.object({ deliveries: z.array(deliveryRecord) }))
    .query(({ ctx, input }) => listDeliveries(ctx.principal, input.webhook_id)),

  test: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/webhooks/{webhook_id}/test",
        tags: TAGS,
        summary: "Send a webhook.test event to this endpoint",
        successDescription: "Accepted",
      },
      accepted: true,
      noBody: true,
    })
    .input(byId)
    .output(z.object({ event_id: z.string() }))
    .mutation(({ ctx, input }) => sendTestEvent(ctx.principal, input.webhook_id)),

  retry: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/webhooks/{webhook_id}/deliveries/{delivery_id}/retry",
        tags: TAGS,
        summary: "Send a delivery's event again, as a new delivery due now",
        description:
          "The event goes to the endpoint again with the same `webhook-id` header, so a receiver that keeps ids drops a duplicate. The new delivery appears in the delivery log; the old one stays. The event is kept 30 days from the retry.",
        successDescription: "Accepted",
      },
      accepted: true,
      noBody: true,
    })
    .input(byDelivery)
    .output(z.object({ delivery_id: z.string().meta({ description: "The new delivery's id." }) }))
    .mutation(({ ctx, input }) => resendDelivery(ctx.principal, input.webhook_id, input.delivery_id)),

  rotateSecret: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/webhooks/{webhook_id}/rotate-secret",
        tags: TAGS,
        summary: "Replace the signing secret (the new one is shown this once)",
        description:
          "For 24 hours every delivery carries both signatures (`webhook-signature: v1,<new> v1,<old>`), so a receiver verifies with either secret while it switches; then only the new one.",
      },
      noBody: true,
    })
    .input(byId)
    .output(z.object({ webhook: createdWebhookRecord }))
    .mutation(({ ctx, input }) => rotateSigningSecret(ctx.principal, input.webhook_id)),
});

const inLibrary = z.object({ scope: libraryKindField });
const pageById = inLibrary.extend({ webhook_id: webhookIdParam });

/** The pages' calls: the account's personal library or its team's (an admin's), as the scope says. */
export const webhookPagesRouter = createTRPCRouter({
  list: sessionProcedure
    .input(inLibrary)
    .query(async ({ ctx, input }) => listWebhooks(await actorFor(ctx.session.userId, input.scope, null))),
  create: sessionProcedure
    .input(inLibrary.extend({ body: webhookCreateInput }))
    .mutation(async ({ ctx, input }) =>
      createWebhook(await actorFor(ctx.session.userId, input.scope, null), input.body),
    ),
  update: sessionProcedure
    .input(inLibrary.extend({ body: webhookPatchInput }))
    .mutation(async ({ ctx, input }) =>
      updateWebhook(await actorFor(ctx.session.userId, input.scope, null), input.body),
    ),
  remove: sessionProcedure
    .input(pageById)
    .mutation(async ({ ctx, input }) =>
      deleteWebhook(await actorFor(ctx.session.userId, input.scope, null), input.webhook_id),
    ),
  deliveries: sessionProcedure
    .input(pageById)
    .query(async ({ ctx, input }) =>
      listDeliveries(await actorFor(ctx.session.userId, input.scope, null), input.webhook_id),
    ),
  test: sessionProcedure
    .input(pageById)
    .mutation(async ({ ctx, input }) =>
      sendTestEvent(await actorFor(ctx.session.userId, input.scope, null), input.webhook_id),
    ),
  resend: sessionProcedure
    .input(pageById.extend({ delivery_id: z.string() }))
    .mutation(async ({ ctx, input }) =>
      resendDelivery(await actorFor(ctx.session.userId, input.scope, null), input.webhook_id, input.delivery_id),
    ),
});
