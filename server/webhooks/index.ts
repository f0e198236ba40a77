// Webhooks (contract: "Webhooks"), one entry point: endpoints of a library (endpoints.ts), the
// outbox that domain changes write their events to in their own transaction (events.ts), and
// the dispatcher that delivers them, signed (dispatcher.ts, signature.ts), to public addresses
// only (address.ts). The production server runs the dispatcher on its background thread
// (server/http/background-thread.ts).
export { changeWithEvents, EVENT_TYPES, type PendingEvent } from "./events";
export {
  createdWebhookRecord,
  createWebhook,
  deleteWebhook,
  deliveryRecord,
  listDeliveries,
  listWebhooks,
  resendDelivery,
  sendTestEvent,
  updateWebhook,
  webhookCreateInput,
  webhookIdParam,
  webhookPatchInput,
  webhookRecord,
} from "./endpoints";
export { rotateSigningSecret, OVERLAP_SECONDS } from "./secret-rotation";
