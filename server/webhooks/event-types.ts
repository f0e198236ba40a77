// The events an endpoint may subscribe to (contract: "Webhooks"), apart so that the pages' form
// can list them without the server's modules.
export const EVENT_TYPES = [
  "qrcode.created",
  "qrcode.deleted",
  "dynqrcode.created",
  "dynqrcode.updated",
  "dynqrcode.deleted",
  "draft.approved",
  "draft.rejected",
  "scan.created",
] as const;
