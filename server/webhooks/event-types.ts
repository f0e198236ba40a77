// The events an endpoint may subscribe to (contract: "Webhooks"), apart so that the pages' form
// can list them without the server's modules.
export const EVENT_TYPES = [
  "qrcode.created",
  "qrcode.updated",
  "qrcode.deleted",
  "dynqrcode.created",
  "dynqrcode.updated",
  "dynqrcode.deleted",
  "draft.approved",
  "draft.rejected",
  "scan.created",
] as const;

/** What an endpoint receives: the events it subscribes to, and the test event `POST /v1/webhooks/{webhook_id}/test` sends it. */
export const DELIVERED_EVENT_TYPES = [...EVENT_TYPES, "webhook.test"] as const;
