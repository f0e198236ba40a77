// The authorization matrix: every /v1 route (read from the OpenAPI document, so a new route
// cannot be left out) × every kind of caller. A team's record is the target; no cell may read
// or change it unless the caller holds a key of that team.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { before, describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { createDynamicCodes } from "../../server/library/dynamicCodes";
import { createStaticCodes } from "../../server/library/staticCodes";
import { createWebhook, sendTestEvent } from "../../server/webhooks";
import { addDomain } from "../../server/domains/domains";
import { createPreset } from "../../server/stylePresets/stylePresets";
import { setTxtRecord } from "../dns-server";
import { removeMember } from "../../server/teams/teams";
import { setTier } from "../../server/accounts/users";
import { generateKey, http, makeTeam, makeUser, personalKey, revokeKey } from "../helpers";
import { env } from "../../server/platform/env";

type Caller = {
  name: string;
  key: string | undefined;
  expect: "own team" | "other library" | { status: number; error: string };
};
/** A route as the document says it: whether it takes a body, and the status of its success. */
type Route = { method: string; path: string; body: boolean; success: number };

type Target = { qrId: string; code: string; webhookId: string; deliveryId: string; domain: string; preset: string };
class NdjsonBody {
  constructor(readonly text: string) {}
}
/** A valid body for each route that takes one (of the cell's target record). A route missing here fails the test. */
const BODIES: Record<string, unknown | ((t: Target) => unknown)> = {
  "POST /v1/qrcodes": { url: "https://example.com/m", name: "Matrix" },
  "POST /v1/qrcodes/batch": { qrcodes: [{ url: "https://example.com/m", name: "Matrix" }] },
  "POST /v1/dynqrcodes": { destination_url: "https://example.com/m", name: "Matrix" },
  "POST /v1/dynqrcodes/batch": { dynqrcodes: [{ destination_url: "https://example.com/m", name: "Matrix" }] },
  "PATCH /v1/dynqrcodes/{code}": { name: "Renamed by matrix" },
  "PATCH /v1/qrcodes/{qr_id}": { name: "Renamed by matrix" },
  "PATCH /v1/qrcodes/batch": (t: Target) => ({ qrcodes: [{ qr_id: t.qrId, name: "Renamed by matrix" }] }),
  "PATCH /v1/dynqrcodes/batch": (t: Target) => ({ dynqrcodes: [{ code: t.code, name: "Renamed by matrix" }] }),
  "POST /v1/qrcodes/batch-delete": (t: Target) => ({ ids: [t.qrId] }),
  "POST /v1/dynqrcodes/batch-delete": (t: Target) => ({ ids: [t.code] }),
  "POST /v1/webhooks": { url: "https://93.184.215.14/matrix", events: ["qrcode.created"] },
  "PATCH /v1/webhooks/{webhook_id}": { description: "Changed by matrix" },
  // Not JSON: a bundle (docs/BUNDLE.md) of one static code.
  "POST /v1/bundle": new NdjsonBody(
    '{"type": "bundle", "version": 1}\n{"type": "static", "url": "https://example.com/m", "name": "Matrix"}\n',
  ),
  "POST /v1/domains": () => ({ domain: `matrix-${randomBytes(5).toString("hex")}.example.com` }),
  "POST /v1/style-presets": () => ({ name: `Matrix ${randomBytes(5).toString("hex")}`, style: {} }),
  "PATCH /v1/style-presets/{name}": { style: { margin: 5 } },
};
/** Routes whose body, not path, names the target record: another library's key finds none (404). */
const NAMES_IN_BODY = new Set([
  "PATCH /v1/qrcodes/batch",
  "PATCH /v1/dynqrcodes/batch",
  "POST /v1/qrcodes/batch-delete",
  "POST /v1/dynqrcodes/batch-delete",
]);
/** Only a team's admins manage its webhooks and domains and import bundles: a writer's key is refused. */
const ADMIN_ONLY: Record<string, string> = {
  "/v1/webhooks": "Only a team admin can manage webhooks",
  "/v1/domains": "Only a team admin can manage domains",
  "POST /v1/style-presets": "Only a team admin can manage style presets",
  "PATCH /v1/style-presets/{name}": "Only a team admin can manage style presets",
  "DELETE /v1/style-presets/{name}": "Only a team admin can manage style presets",
  "POST /v1/bundle": "Only a team admin can import a bundle into the team library",
};
/** The refusal a writer gets on a route (a path prefix, or one method and path), if any. */
const adminOnly = (label: string) =>
  Object.entries(ADMIN_ONLY).find(([rule]) => label === rule || label.split(" ")[1].startsWith(rule))?.[1];

async function routes(): Promise<Route[]> {
  type Operation = { requestBody?: unknown; responses: Record<string, unknown> };
  const doc = (await http("GET", "/v1/openapi.json")).body as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(doc.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path: `/v1${path}`,
        body: op.requestBody !== undefined && method !== "get",
        success: Math.min(
          ...Object.keys(op.responses)
            .map(Number)
            .filter((s) => s >= 200 && s < 300),
        ),
      })),
    )
    .filter((r) => r.path !== "/v1/openapi.json");
}

describe("authorization matrix", () => {
  let team: Awaited<ReturnType<typeof makeTeam>>;
  let callers: Caller[];

  before(async () => {
    team = await makeTeam();
    const other = await makeTeam();
    const { key: otherPersonal } = await personalKey();
    const { user: revokedUser, key: revoked, keyId } = await personalKey();
    await revokeKey(keyId, revokedUser.id);
    env.keyActivationDelaySeconds = 600;
    const { key: notActive } = await generateKey((await makeUser("pro")).id, "personal");
    env.keyActivationDelaySeconds = 0;
    const { user: downgraded, key: freeOwner } = await personalKey();
    await setTier(downgraded.email, "free");
    const removed = await team.addWriter();
    await removeMember(team.admin.id, removed.user.id);

    callers = [
      { name: "no key", key: undefined, expect: { status: 401, error: "Missing API key" } },
      { name: "invalid key", key: "qrp_" + "x".repeat(40), expect: { status: 401, error: "Invalid API key" } },
      { name: "revoked key", key: revoked, expect: { status: 401, error: "API key has been revoked" } },
      { name: "key not active yet", key: notActive, expect: { status: 401, error: "API key is not active yet" } },
      {
        name: "Free owner",
        key: freeOwner,
        expect: { status: 403, error: "API access requires a Pro or Business plan" },
      },
      {
        name: "removed member's old key",
        key: removed.key,
        expect: { status: 401, error: "API key has been revoked" },
      },
      { name: "personal key of another account", key: otherPersonal, expect: "other library" },
      { name: "business key of another team", key: other.adminKey, expect: "other library" },
      { name: "writer", key: (await team.addWriter()).key, expect: "own team" },
      { name: "admin", key: team.adminKey, expect: "own team" },
    ];
  });

  /** A fresh record of the team for each cell (DELETE and PATCH change it). */
  async function target() {
    const actor = {
      userId: team.admin.id,
      library: { kind: "team" as const, teamId: team.id },
      role: "admin" as const,
    };
    const [stat] = await createStaticCodes(actor, [{ url: "https://example.com/target", name: "Target" }]);
    const [dyn] = await createDynamicCodes(actor, [{ destination_url: "https://example.com/target", name: "Target" }]);
    // One webhook of the team at a time (a library holds at most 10).
    await db.webhookDelivery.deleteMany({
      where: {
        endpointId: {
          in: (await db.webhookEndpoint.findMany({ where: { library: `team:${team.id}` } })).map((w) => w.id),
        },
      },
    });
    await db.webhookEndpoint.deleteMany({ where: { library: `team:${team.id}` } });
    const { webhook } = await createWebhook(actor, {
      url: "https://93.184.215.14/target",
      events: ["draft.approved"],
      description: "Target",
    });
    // A delivery of it to resend (a test event's).
    await sendTestEvent(actor, webhook.webhook_id);
    const delivery = await db.webhookDelivery.findFirstOrThrow({ where: { endpointId: webhook.webhook_id } });
    // A domain of the team whose TXT record is in place (verify answers 200), used by no code (DELETE answers 200).
    const { domain } = await addDomain(actor, { domain: `target-${randomBytes(5).toString("hex")}.example.com` });
    setTxtRecord(domain.verification.name, [domain.verification.value]);
    // One style preset of the team at a time (a library holds at most 100).
    await db.stylePreset.deleteMany({ where: { library: `team:${team.id}` } });
    const { style_preset: preset } = await createPreset(actor, {
      name: `preset-${randomBytes(5).toString("hex")}`,
      style: {},
    });
    return {
      qrId: stat.qr_id,
      code: dyn.code,
      webhookId: webhook.webhook_id,
      deliveryId: delivery.id,
      domain: domain.domain,
      preset: preset.name,
    };
  }

  /** The library (team id, or null) each created record was stored in. */
  async function createdTeams(body: unknown): Promise<(string | null)[]> {
    const created = (body as { created: { qr_id?: string; code?: string }[] }).created;
    return Promise.all(
      created.map(async (c) =>
        c.qr_id
          ? (await db.staticCode.findUniqueOrThrow({ where: { id: c.qr_id } })).teamId
          : (await db.dynamicCode.findFirstOrThrow({ where: { code: c.code! } })).teamId,
      ),
    );
  }

  async function unchanged(t: Target, context: string) {
    const stat = await db.staticCode.findUnique({ where: { id: t.qrId } });
    const dyn = await db.dynamicCode.findFirst({ where: { code: t.code } });
    const hook = await db.webhookEndpoint.findUnique({ where: { id: t.webhookId } });
    const domain = await db.domain.findUnique({ where: { domain: t.domain } });
    assert.ok(domain && domain.verifiedAt === null, `${context}: the domain changed`);
    const preset = await db.stylePreset.findUnique({
      where: { library_name: { library: `team:${team.id}`, name: t.preset } },
    });
    assert.ok(preset && preset.style === "{}", `${context}: the style preset changed`);
    assert.ok(stat, `${context}: the static record is gone`);
    assert.ok(dyn && dyn.deletedAt === null && dyn.name === "Target", `${context}: the dynamic record changed`);
    assert.ok(hook && hook.description === "Target", `${context}: the webhook changed`);
    assert.equal(
      await db.webhookDelivery.count({ where: { endpointId: t.webhookId } }),
      1,
      `${context}: an event was sent (or sent again) to the team's webhook`,
    );
  }

  it("every route × every caller gives the expected status, and only the team's keys reach its records", async () => {
    const list = await routes();
    assert.ok(list.length >= 11, `routes found: ${list.length}`);
    let cells = 0;
    for (const route of list) {
      const label = `${route.method} ${route.path}`;
      const needsBody = route.body;
      if (needsBody) assert.ok(label in BODIES, `no sample body for ${label}: add one to the matrix`);
      for (const caller of callers) {
        const t = await target();
        const path = route.path
          .replace("{qr_id}", t.qrId)
          .replace("{code}", t.code)
          .replace("{webhook_id}", t.webhookId)
          .replace("{delivery_id}", t.deliveryId)
          .replace("{domain}", t.domain)
          .replace("{name}", encodeURIComponent(t.preset));
        const body = BODIES[label];
        const json = needsBody ? (typeof body === "function" ? body(t) : body) : undefined;
        const send = () =>
          http(
            route.method,
            path,
            json instanceof NdjsonBody
              ? { key: caller.key, body: json.text, headers: { "content-type": "application/x-ndjson" } }
              : { key: caller.key, json },
          );
        let r = await send();
        // Missing and invalid keys count against 127.0.0.1's guesses (60, then 1 a second), which
        // the other files running beside this one spend too: a 429 there is waited out, not judged.
        while (r.status === 429 && typeof caller.expect === "object" && caller.expect.status === 401) {
          await new Promise((resolve) => setTimeout(resolve, 1000 * Number(r.headers.get("retry-after") ?? 1)));
          r = await send();
        }
        const context = `${label} as ${caller.name}`;
        cells++;
        if (typeof caller.expect === "object") {
          assert.equal(r.status, caller.expect.status, context);
          assert.deepEqual(r.body, { error: caller.expect.error }, context);
          await unchanged(t, context);
          continue;
        }
        const hasParam = route.path.includes("{") || NAMES_IN_BODY.has(label);
        const sees = [t.qrId, t.code, t.webhookId, t.domain, t.preset].some((id) => r.text.includes(id));
        if (caller.expect === "other library") {
          if (hasParam) assert.equal(r.status, 404, context);
          else assert.ok(r.status === 200 || r.status === 201, `${context}: ${r.status}`);
          assert.ok(!sees, `${context}: sees the team's record`);
          if (r.status === 201 && !adminOnly(label))
            assert.ok(
              (await createdTeams(r.body)).every((id) => id !== team.id),
              `${context}: created in the team's library`,
            );
          await unchanged(t, context);
        } else if (adminOnly(label) && caller.name === "writer") {
          assert.deepEqual([r.status, r.body], [403, { error: adminOnly(label) }], context);
          await unchanged(t, context);
        } else {
          assert.equal(r.status, route.success, `${context}: ${r.text}`);
          // A list must show the team's record; a route that names it has already found it.
          if (route.method === "GET" && !hasParam) assert.ok(sees, `${context}: does not see the team's record`);
          if (r.status === 201 && !adminOnly(label)) {
            assert.ok(
              (await createdTeams(r.body)).every((id) => id === team.id),
              `${context}: not in the team's library`,
            );
            const created = (r.body as { created: { status?: string }[] }).created;
            assert.ok(
              created.every((c) => c.status === undefined || c.status === "draft"),
              `${context}: ${r.text}`,
            );
          }
        }
      }
    }
    assert.equal(cells, list.length * callers.length);
  });
});
