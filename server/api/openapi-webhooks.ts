// The webhook payloads as OpenAPI 3.1 `webhooks`: one POST per event name the service sends
// (server/webhooks/event-types.ts), its body the envelope `{type, timestamp, data}` with `data`
// the record as the API returns it (the records' own schemas, by reference), the scan of
// `scan.created`, or the endpoint of `webhook.test`. tests/api/webhook-payloads.integration.test.ts checks
// the payloads a real receiver gets against these schemas.
import { DELIVERED_EVENT_TYPES } from "../webhooks/event-types";

type EventName = (typeof DELIVERED_EVENT_TYPES)[number];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const STATIC = ref("StaticQrCode");
const DYNAMIC = ref("DynamicQrCode");
const EITHER = { oneOf: [STATIC, DYNAMIC] };

const scanData = {
  type: "object",
  additionalProperties: false,
  required: ["code", "scanned_at", "country", "device", "os", "browser", "unique"],
  properties: {
    code: { type: "string", maxLength: 64, description: "The dynamic code scanned." },
    scanned_at: {
      type: "integer",
      format: "int64",
      minimum: 0,
      maximum: 253402300799,
      description: "When, in seconds since the epoch (as every record's time).",
    },
    country: { type: "string", pattern: "^[A-Z]{2}$", description: "ISO 3166-1 alpha-2; `ZZ` when unknown." },
    device: { type: "string", enum: ["mobile", "tablet", "desktop", "other"] },
    os: { type: "string", description: "The operating system's name, as the analytics show it." },
    browser: { type: "string", description: "The browser's name, as the analytics show it (`Unknown` when none)." },
    unique: { type: "boolean", description: "The visitor's first scan of the code that UTC day." },
  },
};
const testData = {
  type: "object",
  additionalProperties: false,
  required: ["webhook_id"],
  properties: { webhook_id: { type: "string", maxLength: 64, description: "The endpoint the test was sent to." } },
};

const EVENTS: Record<EventName, { summary: string; data: object }> = {
  "qrcode.created": { summary: "A static code was created (one event per code of a batch)", data: STATIC },
  "qrcode.updated": {
    summary: "A static code was changed (one event per code of a batch): the record after it",
    data: STATIC,
  },
  "qrcode.deleted": { summary: "A static code was deleted: the record as it was", data: STATIC },
  "dynqrcode.created": { summary: "A dynamic code was created (one event per code of a batch)", data: DYNAMIC },
  "dynqrcode.updated": {
    summary: "A dynamic code changed, or a held change to it was approved: the record after",
    data: DYNAMIC,
  },
  "dynqrcode.deleted": { summary: "A dynamic code was deleted: the record as it was", data: DYNAMIC },
  "draft.approved": { summary: "A team admin approved a draft: the record, now published", data: EITHER },
  "draft.rejected": { summary: "A team admin rejected a draft: the record as it was", data: EITHER },
  "scan.created": { summary: "A dynamic code was scanned", data: scanData },
  "webhook.test": {
    summary: "Sent by POST /v1/webhooks/{webhook_id}/test to that endpoint only, whatever it subscribes to",
    data: testData,
  },
};

const SIGNATURE_HEADERS = [
  {
    name: "webhook-id",
    description: "The event's id, the same on every attempt: drop an id you have already handled.",
    schema: { type: "string", maxLength: 64 },
  },
  {
    name: "webhook-timestamp",
    description: "Epoch seconds of this attempt.",
    schema: { type: "string", pattern: "^\\d{1,12}$" },
  },
  {
    name: "webhook-signature",
    description:
      'Standard Webhooks: `v1,<base64 of HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the endpoint\'s secret after `whsec_`.',
    schema: { type: "string", pattern: "^v1,[A-Za-z0-9+/=]+$", maxLength: 1024 },
  },
].map((h) => ({ ...h, in: "header", required: true }));

const camel = (name: string) => name.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase());

/** The document's `webhooks`, one operation per event name. */
export function webhookOperations() {
  return Object.fromEntries(
    Object.entries(EVENTS).map(([type, { summary, data }]) => [
      type,
      {
        post: {
          operationId: `${camel(type)}Event`,
          summary,
          description: `${summary}. Delivered at least once, signed as Standard Webhooks; retried until your endpoint answers 2xx within 10 s.`,
          tags: ["Webhooks"],
          parameters: SIGNATURE_HEADERS,
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  additionalProperties: false,
                  required: ["type", "timestamp", "data"],
                  properties: {
                    type: { type: "string", const: type },
                    timestamp: {
                      type: "string",
                      format: "date-time",
                      maxLength: 32,
                      description: "When the event happened, ISO 8601 UTC.",
                    },
                    data,
                  },
                },
              },
            },
          },
          responses: { 200: { description: "Any 2xx answer within 10 s: delivered." } },
          // Not an API call: the signature headers authenticate it, which no security scheme expresses.
          security: [],
        },
      },
    ]),
  );
}
