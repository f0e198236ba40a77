// Webhooks (contract: "Webhooks"), against a real receiver: an HTTP server of the test's own on
// loopback (the test server runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 and WEBHOOK_RETRY_SCALE
// 0.01, tests/run.ts), whose signatures the `standardwebhooks` package verifies. The refusals of
// private addresses are checked on a server of this file's own without that flag. Scans, timeouts,
// crashes and several instances: tests/instances/webhook-instances.backends.test.ts; the
// outbox's clean-up: tests/instances/webhook-outbox.backends.test.ts.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { startServer, type RunningServer } from "../../scripts/harness";
import { db } from "../../server/platform/db";
import { reviewDrafts } from "../../server/teams/draftReview";
import { http, makeTeam, personalKey, until } from "../helpers";
import { created, DELIVERY_WAIT_MS, receiver } from "../webhook-receiver";

/**
 * Removes the endpoints of a key's library, so that no dispatcher goes on trying their
 * addresses; through the API, never by URL: other files' libraries use the same addresses.
 */
async function removeEndpoints(key: string): Promise<void> {
  const { webhooks } = (await http("GET", "/v1/webhooks", { key })).body as { webhooks: { webhook_id: string }[] };
  for (const { webhook_id } of webhooks)
    assert.equal((await http("DELETE", `/v1/webhooks/${webhook_id}`, { key })).status, 200);
}

describe("webhooks: managing endpoints", () => {
  it("create shows the secret once; list, patch and delete; bad input is refused and stores nothing", async () => {
    const { key } = await personalKey();
    const r = await http("POST", "/v1/webhooks", {
      key,
      json: {
        url: "https://93.184.215.14/hooks",
        events: ["dynqrcode.created", "scan.created"],
        description: "orders",
      },
    });
    assert.equal(r.status, 201);
    const hook = created(r);
    assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(hook.secret.slice(6), "base64").length, 32);
    const listed = (await http("GET", "/v1/webhooks", { key })).body as { webhooks: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(listed.webhooks[0]).sort(), [
      "created_at",
      "description",
      "disabled_reason",
      "enabled",
      "events",
      "url",
      "webhook_id",
    ]);
    assert.equal(listed.webhooks[0].secret, undefined, "the secret is shown only once");
    for (const [json, error] of [
      [{ url: "https://93.184.215.14/x", events: ["nope.happened"] }, "Unknown event: nope.happened"],
      [{ url: "https://93.184.215.14/x", events: [] }, "events must name at least 1 event"],
      [{ url: "https://93.184.215.14/x", events: ["qrcode.created"], secret: "mine" }, "Unknown field: secret"],
    ] as const) {
      const bad = await http("POST", "/v1/webhooks", { key, json });
      assert.deepEqual([bad.status, bad.body], [400, { error }]);
    }
    const patched = await http("PATCH", `/v1/webhooks/${hook.webhook_id}`, {
      key,
      json: { enabled: false, events: ["qrcode.deleted"] },
    });
    assert.deepEqual(
      [
        patched.status,
        (patched.body as { webhook: { enabled: boolean; events: string[] } }).webhook.enabled,
        (patched.body as { webhook: { events: string[] } }).webhook.events,
      ],
      [200, false, ["qrcode.deleted"]],
    );
    const badType = await http("PATCH", `/v1/webhooks/${hook.webhook_id}`, { key, json: { enabled: "yes" } });
    assert.deepEqual([badType.status, badType.body], [400, { error: "enabled must be true or false" }]);
    assert.equal((await http("DELETE", `/v1/webhooks/${hook.webhook_id}`, { key })).status, 200);
    assert.equal((await http("DELETE", `/v1/webhooks/${hook.webhook_id}`, { key })).status, 404);
    assert.equal(((await http("GET", "/v1/webhooks", { key })).body as { webhooks: unknown[] }).webhooks.length, 0);
  });

  it("a library holds at most 10 endpoints; a writer's business key may not manage them", async () => {
    const { key } = await personalKey();
    for (let i = 0; i < 10; i++)
      assert.equal(
        (
          await http("POST", "/v1/webhooks", {
            key,
            json: { url: `https://93.184.215.14/${i}`, events: ["qrcode.created"] },
          })
        ).status,
        201,
      );
    const eleventh = await http("POST", "/v1/webhooks", {
      key,
      json: { url: "https://93.184.215.14/10", events: ["qrcode.created"] },
    });
    assert.deepEqual(
      [eleventh.status, eleventh.body],
      [400, { error: "A library holds at most 10 webhook endpoints" }],
    );
    const team = await makeTeam();
    const writer = await team.addWriter();
    const refused = await http("POST", "/v1/webhooks", {
      key: writer.key,
      json: { url: "https://93.184.215.14/w", events: ["qrcode.created"] },
    });
    assert.deepEqual([refused.status, refused.body], [403, { error: "Only a team admin can manage webhooks" }]);
    assert.equal(
      (
        await http("POST", "/v1/webhooks", {
          key: team.adminKey,
          json: { url: "https://93.184.215.14/a", events: ["draft.approved"] },
        })
      ).status,
      201,
    );
    await removeEndpoints(key);
    await removeEndpoints(team.adminKey);
  });
});

describe("webhooks: private addresses refused without WEBHOOK_ALLOW_PRIVATE_NETWORKS", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: "" });
  });
  after(() => server.stop());

  it("http://, private, loopback, link-local, mapped and names that resolve to loopback", async () => {
    const { key } = await personalKey();
    const refused = [
      "http://93.184.215.14/hook",
      "https://127.0.0.1/hook",
      "https://[::1]/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://10.0.0.1/hook",
      "https://192.168.1.20/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://[fd00::1]/hook",
      "https://localhost/hook",
      "https://user:pw@93.184.215.14/hook",
      "not a url",
    ];
    for (const url of refused) {
      const r = await fetch(`${server.base}/v1/webhooks`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ url, events: ["qrcode.created"] }),
      });
      assert.deepEqual([r.status, await r.json()], [400, { error: "url must be a public https URL" }], url);
      await new Promise((r) => setTimeout(r, 210)); // the key's bucket
    }
    assert.equal(await db.webhookEndpoint.count({ where: { library: { contains: "" }, url: { in: refused } } }), 0);
    const ok = await fetch(`${server.base}/v1/webhooks`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://93.184.215.14/hook", events: ["qrcode.created"] }),
    });
    assert.equal(ok.status, 201);
    await removeEndpoints(key);
  });
});

describe("webhooks: deliveries to a real receiver", () => {
  let hooks: Awaited<ReturnType<typeof receiver>>;
  before(async () => {
    hooks = await receiver();
  });
  after(() => hooks.close());

  it("every change is delivered once, signed, with the contract's payload; a rolled-back batch sends nothing", async () => {
    const { key } = await personalKey();
    const hook = created(
      await http("POST", "/v1/webhooks", {
        key,
        json: {
          url: `${hooks.base}/all`,
          events: ["qrcode.created", "qrcode.deleted", "dynqrcode.created", "dynqrcode.updated", "dynqrcode.deleted"],
        },
      }),
    );
    const mine = () => hooks.received.filter((r) => r.path === "/all");
    const stat = (await http("POST", "/v1/qrcodes", { key, json: { url: "https://example.com/s", name: "S" } }))
      .body as { created: { qr_id: string }[] };
    const batch = (
      await http("POST", "/v1/dynqrcodes/batch", {
        key,
        json: {
          dynqrcodes: [
            { destination_url: "https://example.com/a", name: "A" },
            { destination_url: "https://example.com/b", name: "B" },
          ],
        },
      })
    ).body as { created: { code: string }[] };
    const rolledBack = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: {
        dynqrcodes: [
          { destination_url: "https://example.com/c", name: "C" },
          { destination_url: "ftp://x", name: "bad" },
        ],
      },
    });
    assert.equal(rolledBack.status, 400);
    const code = batch.created[0].code;
    await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { name: "A2" } });
    await http("DELETE", `/v1/dynqrcodes/${code}`, { key });
    await http("DELETE", `/v1/qrcodes/${stat.created[0].qr_id}`, { key });
    await until(() => mine().length >= 6, "six deliveries", DELIVERY_WAIT_MS);
    await new Promise((r) => setTimeout(r, 300)); // nothing more arrives
    const events = mine().map((r) => ({
      ...r,
      payload: JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> },
    }));
    assert.deepEqual(events.map((e) => e.payload.type).sort(), [
      "dynqrcode.created",
      "dynqrcode.created",
      "dynqrcode.deleted",
      "dynqrcode.updated",
      "qrcode.created",
      "qrcode.deleted",
    ]);
    assert.ok(!events.some((e) => e.payload.data.name === "C"), "the rolled-back batch sent nothing");
    const verifier = new Webhook(hook.secret);
    for (const e of events) {
      verifier.verify(e.body, {
        "webhook-id": String(e.headers["webhook-id"]),
        "webhook-timestamp": String(e.headers["webhook-timestamp"]),
        "webhook-signature": String(e.headers["webhook-signature"]),
      });
      assert.match(e.payload.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(e.headers["content-type"], "application/json");
    }
    assert.equal(new Set(events.map((e) => e.headers["webhook-id"])).size, 6, "one event id per change");
    const updated = events.find((e) => e.payload.type === "dynqrcode.updated")!.payload.data;
    assert.deepEqual([updated.code, updated.name, updated.status, updated.team_id], [code, "A2", "active", null]);
    assert.throws(
      () =>
        new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(
          events[0].body,
          events[0].headers as Record<string, string>,
        ),
      "another secret does not verify",
    );
    const deliveries = (await http("GET", `/v1/webhooks/${hook.webhook_id}/deliveries`, { key })).body as {
      deliveries: { status: string; attempts: number; response_status: number; type: string }[];
    };
    assert.equal(deliveries.deliveries.length, 6);
    assert.ok(
      deliveries.deliveries.every((d) => d.status === "delivered" && d.attempts === 1 && d.response_status === 204),
      JSON.stringify(deliveries),
    );
  });

  it("a receiver that fails twice gets a third attempt with the same webhook-id; the log shows it", async () => {
    const { key } = await personalKey();
    hooks.answers["/flaky"] = [500, 503];
    const hook = created(
      await http("POST", "/v1/webhooks", { key, json: { url: `${hooks.base}/flaky`, events: ["qrcode.created"] } }),
    );
    await http("POST", "/v1/qrcodes", { key, json: { url: "https://example.com/f", name: "F" } });
    const mine = () => hooks.received.filter((r) => r.path === "/flaky");
    await until(() => mine().length >= 3, "three attempts", DELIVERY_WAIT_MS);
    assert.equal(new Set(mine().map((r) => r.headers["webhook-id"])).size, 1);
    const log = () =>
      http("GET", `/v1/webhooks/${hook.webhook_id}/deliveries`, { key }).then(
        (r) => (r.body as { deliveries: { status: string; attempts: number; response_status: number }[] }).deliveries,
      );
    let last = await log();
    for (let i = 0; i < 50 && last[0].status !== "delivered"; i++)
      last = await new Promise((r) => setTimeout(r, 100)).then(log);
    assert.deepEqual([last[0].status, last[0].attempts, last[0].response_status], ["delivered", 3, 204]);
    const stored = await db.webhookDelivery.findFirstOrThrow({ where: { endpointId: hook.webhook_id } });
    assert.ok(stored.latencyMs !== null && stored.latencyMs >= 0);
  });

  it("the review queue's decisions are events too: draft.approved and draft.rejected, with the record", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    created(
      await http("POST", "/v1/webhooks", {
        key: team.adminKey,
        json: { url: `${hooks.base}/review`, events: ["draft.approved", "draft.rejected"] },
      }),
    );
    const drafts = (
      (
        await http("POST", "/v1/dynqrcodes/batch", {
          key: writer.key,
          json: {
            dynqrcodes: [
              { destination_url: "https://example.com/yes", name: "Yes" },
              { destination_url: "https://example.com/no", name: "No" },
            ],
          },
        })
      ).body as { created: { code: string }[] }
    ).created;
    const statics = (
      (
        await http("POST", "/v1/qrcodes", {
          key: writer.key,
          json: { url: "https://example.com/s", name: "Static draft" },
        })
      ).body as { created: { qr_id: string }[] }
    ).created;
    // The same domain function as the page's Approve and Reject buttons.
    await reviewDrafts(team.admin.id, "approve", [
      { kind: "dynamic", id: drafts[0].code },
      { kind: "static", id: statics[0].qr_id },
    ]);
    await reviewDrafts(team.admin.id, "reject", [{ kind: "dynamic", id: drafts[1].code }], "Not needed");
    const mine = () =>
      hooks.received
        .filter((r) => r.path === "/review")
        .map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
    await until(() => mine().length >= 3, "three review events", DELIVERY_WAIT_MS);
    const byName = Object.fromEntries(mine().map((e) => [e.data.name, e]));
    assert.deepEqual(
      [byName.Yes.type, byName.Yes.data.status, byName.Yes.data.team_id],
      ["draft.approved", "active", team.id],
    );
    assert.deepEqual(
      [byName["Static draft"].type, byName["Static draft"].data.qr_id],
      ["draft.approved", statics[0].qr_id],
    );
    assert.deepEqual([byName.No.type, byName.No.data.code], ["draft.rejected", drafts[1].code]);
    assert.equal(mine().length, 3, "no other event: the endpoint subscribes to the review only");
  });

  it("Send test event: 202 with the event id, delivered as webhook.test to that endpoint only", async () => {
    const { key } = await personalKey();
    const one = created(
      await http("POST", "/v1/webhooks", { key, json: { url: `${hooks.base}/test-one`, events: ["qrcode.created"] } }),
    );
    created(
      await http("POST", "/v1/webhooks", {
        key,
        json: { url: `${hooks.base}/test-other`, events: ["qrcode.created"] },
      }),
    );
    const r = await http("POST", `/v1/webhooks/${one.webhook_id}/test`, { key });
    assert.equal(r.status, 202);
    const { event_id } = r.body as { event_id: string };
    await until(() => hooks.received.some((x) => x.path === "/test-one"), "the test event", DELIVERY_WAIT_MS);
    const got = hooks.received.find((x) => x.path === "/test-one")!;
    assert.equal(got.headers["webhook-id"], event_id);
    assert.deepEqual(JSON.parse(got.body).type, "webhook.test");
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!hooks.received.some((x) => x.path === "/test-other"));
  });
});
