// The /v1 writes of the activity log's coverage (activity-coverage.integration.test.ts checks that
// every write is named here or among the pages' mutations; activity-v1.integration.test.ts runs these).
import { http } from "../helpers";
import {
  asWriterHeld,
  domainName,
  domainWithRecord,
  HOOK,
  presetPath,
  savedPreset,
  type Coverage,
} from "./activity-log";

/** Every /v1 write (METHOD path): how it reaches the team's log, or why it does not. */
export const V1_WRITES: Record<string, Coverage> = {
  "POST /qrcodes": {
    run: (fx) => http("POST", "/v1/qrcodes", { key: fx.writer.key, json: { name: "Q", url: "https://example.com/q" } }),
    actions: ["code.created"],
    beforeAfter: true,
  },
  "POST /qrcodes/batch": {
    run: (fx) =>
      http("POST", "/v1/qrcodes/batch", {
        key: fx.writer.key,
        json: { qrcodes: [{ name: "Q", url: "https://example.com/q" }] },
      }),
    actions: ["code.created"],
    beforeAfter: true,
  },
  "PATCH /qrcodes/{qr_id}": {
    run: (fx) => http("PATCH", `/v1/qrcodes/${fx.staticDraft}`, { key: fx.writer.key, json: { name: "S2" } }),
    actions: ["code.updated"],
    beforeAfter: true,
  },
  "PATCH /qrcodes/batch": {
    run: (fx) =>
      http("PATCH", "/v1/qrcodes/batch", {
        key: fx.writer.key,
        json: { qrcodes: [{ qr_id: fx.staticDraft, metadata: { order: "1" } }] },
      }),
    actions: ["code.updated"],
    beforeAfter: true,
  },
  "PATCH /dynqrcodes/batch": {
    run: (fx) =>
      http("PATCH", "/v1/dynqrcodes/batch", {
        key: fx.writer.key,
        json: { dynqrcodes: [{ code: fx.published, destination_url: "https://example.com/held" }] },
      }),
    actions: ["code.change_requested"],
    beforeAfter: true,
  },
  "DELETE /qrcodes/{qr_id}": {
    run: (fx) => http("DELETE", `/v1/qrcodes/${fx.staticDraft}`, { key: fx.writer.key }),
    actions: ["code.deleted"],
    beforeAfter: true,
  },
  "POST /qrcodes/batch-delete": {
    run: (fx) => http("POST", "/v1/qrcodes/batch-delete", { key: fx.writer.key, json: { ids: [fx.staticDraft] } }),
    actions: ["code.deleted"],
    beforeAfter: true,
  },
  "POST /dynqrcodes/batch-delete": {
    run: (fx) => http("POST", "/v1/dynqrcodes/batch-delete", { key: fx.team.adminKey, json: { ids: [fx.published] } }),
    actions: ["code.deleted"],
    beforeAfter: true,
  },
  "POST /dynqrcodes": {
    run: (fx) =>
      http("POST", "/v1/dynqrcodes", {
        key: fx.writer.key,
        json: { name: "D", destination_url: "https://example.com/d" },
      }),
    actions: ["code.created"],
    beforeAfter: true,
  },
  "POST /dynqrcodes/batch": {
    run: (fx) =>
      http("POST", "/v1/dynqrcodes/batch", {
        key: fx.writer.key,
        json: { dynqrcodes: [{ name: "D", destination_url: "https://example.com/d" }] },
      }),
    actions: ["code.created"],
    beforeAfter: true,
  },
  "PATCH /dynqrcodes/{code}": { run: asWriterHeld, actions: ["code.change_requested"], beforeAfter: true },
  "DELETE /dynqrcodes/{code}": {
    run: (fx) => http("DELETE", `/v1/dynqrcodes/${fx.published}`, { key: fx.team.adminKey }),
    actions: ["code.deleted"],
    beforeAfter: true,
  },
  "POST /bundle": {
    run: (fx) =>
      http("POST", "/v1/bundle", {
        key: fx.team.adminKey,
        body: '{"type": "bundle", "version": 1}\n{"type": "static", "url": "https://example.com/b", "name": "Moved in"}\n',
        headers: { "content-type": "application/x-ndjson" },
      }),
    actions: ["bundle.imported"],
  },
  "POST /webhooks": {
    run: (fx) => http("POST", "/v1/webhooks", { key: fx.team.adminKey, json: { url: HOOK, events: ["scan.created"] } }),
    actions: ["webhook.created"],
    beforeAfter: true,
  },
  "PATCH /webhooks/{webhook_id}": {
    run: (fx) => http("PATCH", `/v1/webhooks/${fx.hook}`, { key: fx.team.adminKey, json: { enabled: false } }),
    actions: ["webhook.updated"],
    beforeAfter: true,
  },
  "DELETE /webhooks/{webhook_id}": {
    run: (fx) => http("DELETE", `/v1/webhooks/${fx.hook}`, { key: fx.team.adminKey }),
    actions: ["webhook.deleted"],
    beforeAfter: true,
  },
  "POST /webhooks/{webhook_id}/test": { none: "sends a test event, changes no setting" },
  "POST /domains": {
    run: (fx) => http("POST", "/v1/domains", { key: fx.team.adminKey, json: { domain: domainName() } }),
    actions: ["domain.added"],
    beforeAfter: true,
  },
  "POST /domains/{domain}/verify": {
    run: async (fx) => http("POST", `/v1/domains/${await domainWithRecord(fx)}/verify`, { key: fx.team.adminKey }),
    actions: ["domain.added", "domain.verified"],
    beforeAfter: true,
  },
  "DELETE /domains/{domain}": {
    run: async (fx) => http("DELETE", `/v1/domains/${await domainWithRecord(fx)}`, { key: fx.team.adminKey }),
    actions: ["domain.added", "domain.deleted"],
    beforeAfter: true,
  },
  "POST /style-presets": {
    run: (fx) => savedPreset(fx),
    actions: ["style_preset.created"],
    beforeAfter: true,
  },
  "PATCH /style-presets/{name}": {
    run: async (fx) =>
      http("PATCH", presetPath(await savedPreset(fx)), { key: fx.team.adminKey, json: { style: { margin: 5 } } }),
    actions: ["style_preset.created", "style_preset.updated"],
    beforeAfter: true,
  },
  "DELETE /style-presets/{name}": {
    run: async (fx) => http("DELETE", presetPath(await savedPreset(fx)), { key: fx.team.adminKey }),
    actions: ["style_preset.created", "style_preset.deleted"],
    beforeAfter: true,
  },
  "POST /webhooks/{webhook_id}/deliveries/{delivery_id}/retry": { none: "sends a delivery again, changes no setting" },
  "POST /webhooks/{webhook_id}/rotate-secret": {
    run: (fx) => http("POST", `/v1/webhooks/${fx.hook}/rotate-secret`, { key: fx.team.adminKey }),
    actions: ["webhook.secret_rotated"],
  },
};
