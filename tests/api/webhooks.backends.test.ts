// Webhooks (contract: "Webhooks"), against a real receiver: an HTTP server of the test's own on
// loopback (the test server runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 and WEBHOOK_RETRY_SCALE
// 0.01, tests/run.ts), whose signatures the `standardwebhooks` package verifies. The refusals of
// private addresses are checked on a server of this file's own without that flag.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { startServer, type RunningServer } from "../../scripts/harness";
import { db } from "../../server/platform/db";
import { reviewDrafts } from "../../server/teams/draftReview";
import { actorFor } from "../../server/library/libraryItems";
import { cleanOutbox } from "../../server/webhooks/outbox-cleanup";
import { resendDelivery } from "../../server/webhooks/endpoints";
import { http, makeTeam, personalKey, until, withPair } from "../helpers";
import { receiver } from "../webhook-receiver";
import { UA } from "../agents";

const created = (r: { body: unknown }) => (r.body as { webhook: { webhook_id: string; secret: string } }).webhook;

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
    await until(() => mine().length >= 6, "six deliveries");
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
    await until(() => mine().length >= 3, "three attempts", 20_000);
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
    await until(() => mine().length >= 3, "three review events");
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
    await until(() => hooks.received.some((x) => x.path === "/test-one"), "the test event");
    const got = hooks.received.find((x) => x.path === "/test-one")!;
    assert.equal(got.headers["webhook-id"], event_id);
    assert.deepEqual(JSON.parse(got.body).type, "webhook.test");
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!hooks.received.some((x) => x.path === "/test-other"));
  });
});

const IPHONE = UA.iphone;
const FIREFOX = UA.firefox;
type ScanEventBody = {
  type: string;
  timestamp: string;
  data: {
    code: string;
    scanned_at: number;
    country: string;
    device: string;
    os: string;
    browser: string;
    unique: boolean;
  };
};

describe("webhooks: scans, timeouts, crashes, several instances, the outbox's clean-up", () => {
  let hooks: Awaited<ReturnType<typeof receiver>>;
  before(async () => {
    hooks = await receiver();
  });
  after(() => hooks.close());

  it("scan.created: one event per counted scan, written with the scan's batch; other libraries' scans and bots send nothing", async () => {
    const { key } = await personalKey();
    const other = await personalKey();
    created(
      await http("POST", "/v1/webhooks", { key, json: { url: `${hooks.base}/scans`, events: ["scan.created"] } }),
    );
    const mine = (
      await http("POST", "/v1/dynqrcodes", {
        key,
        json: { destination_url: "https://example.com/scanned", name: "Scanned" },
      })
    ).body as { created: { code: string }[] };
    const theirs = (
      await http("POST", "/v1/dynqrcodes", {
        key: other.key,
        json: { destination_url: "https://example.com/theirs", name: "Theirs" },
      })
    ).body as { created: { code: string }[] };
    const code = mine.created[0].code;
    for (const ua of [IPHONE, IPHONE, FIREFOX, "curl/8.5.0"])
      assert.equal((await http("GET", `/q/${code}`, { headers: { "user-agent": ua } })).status, 302);
    assert.equal(
      (await http("GET", `/q/${theirs.created[0].code}`, { headers: { "user-agent": IPHONE } })).status,
      302,
    );
    const events = () =>
      hooks.received.filter((r) => r.path === "/scans").map((r) => JSON.parse(r.body) as ScanEventBody);
    await until(() => events().length >= 3, "three scan events");
    await new Promise((r) => setTimeout(r, 500)); // neither the bot's scan nor the other library's comes
    const got = events();
    assert.equal(got.length, 3, JSON.stringify(got));
    assert.ok(got.every((e) => e.type === "scan.created" && e.data.code === code && /^[A-Z]{2}$/.test(e.data.country)));
    // Timestamps one way per medium (README): epoch seconds in data, ISO 8601 UTC in the envelope.
    for (const e of got) {
      assert.ok(
        Number.isInteger(e.data.scanned_at) && Math.abs(e.data.scanned_at - Date.now() / 1000) < 120,
        `scanned_at ${e.data.scanned_at}`,
      );
      assert.match(e.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.ok(Date.parse(e.timestamp) / 1000 - e.data.scanned_at >= -1, "the event is stored after its scan");
    }
    const iphone = got.filter((e) => e.data.os === "iOS");
    assert.deepEqual(iphone.map((e) => [e.data.device, e.data.browser, e.data.unique]).sort(), [
      ["mobile", "Mobile Safari", false],
      ["mobile", "Mobile Safari", true],
    ]);
    assert.deepEqual(
      got.filter((e) => e.data.browser === "Firefox").map((e) => [e.data.device, e.data.unique]),
      [["desktop", true]],
    );
  });

  it("a receiver that does not answer is cut after 10 s and the attempt is retried", async () => {
    const { key } = await personalKey();
    hooks.hang.add("/hang");
    const hook = created(
      await http("POST", "/v1/webhooks", { key, json: { url: `${hooks.base}/hang`, events: ["qrcode.created"] } }),
    );
    const sent = Date.now();
    const { event_id } = (await http("POST", `/v1/webhooks/${hook.webhook_id}/test`, { key })).body as {
      event_id: string;
    };
    // Any instance on this database may claim an attempt, and one that a neighbouring file stops
    // or kills then holds it until its claim expires (25 s): the bounds wait past that.
    let row = await db.webhookDelivery.findFirst({ where: { eventId: event_id } });
    for (; Date.now() - sent < 45_000 && !(row && row.attempts >= 1); await new Promise((r) => setTimeout(r, 200)))
      row = await db.webhookDelivery.findFirst({ where: { eventId: event_id } });
    assert.ok(row && row.attempts >= 1, "the attempt ended");
    assert.equal(row.responseStatus, null);
    assert.equal(row.responseBody, "no answer within 10 s");
    assert.ok(row.latencyMs! >= 10_000 && row.latencyMs! < 11_500, `latency ${row.latencyMs} ms`);
    hooks.hang.delete("/hang");
    await until(
      () => hooks.received.filter((r) => r.path === "/hang" && r.headers["webhook-id"] === event_id).length >= 2,
      "the retry",
      40_000,
    ).catch(async (error: Error) => {
      // The delivery's row says where the retry stood.
      const now = await db.webhookDelivery.findFirst({ where: { eventId: event_id } });
      throw new Error(`${error.message}; the delivery now: ${JSON.stringify(now)}`);
    });
  });

  it("kill -9 right after changes were answered: every answered change is still delivered, once per event", async () => {
    const server = await startServer({ REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX ?? "qr:"}hookcrash:` });
    try {
      const { key } = await personalKey();
      created(
        await http("POST", "/v1/webhooks", {
          key,
          json: { url: `${hooks.base}/crash`, events: ["dynqrcode.created"] },
        }),
      );
      const answered: string[] = [];
      for (let i = 0; i < 8; i++) {
        const r = await fetch(`${server.base}/v1/dynqrcodes`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify({ destination_url: `https://example.com/crash/${i}`, name: `crash ${i}` }),
        });
        if (r.status === 201) answered.push(((await r.json()) as { created: { code: string }[] }).created[0].code);
        else await r.arrayBuffer();
      }
      server.child.kill("SIGKILL"); // at once after the last answer: its events may not have left yet
      await server.exited;
      assert.ok(answered.length >= 4, `answered before the kill: ${answered.length}`);
      const codes = () =>
        hooks.received
          .filter((r) => r.path === "/crash")
          .map((r) => (JSON.parse(r.body) as { data: { code: string } }).data.code);
      // Deliveries the killed instance had claimed wait for their claim to expire (25 s).
      await until(() => answered.every((c) => codes().includes(c)), "every answered change's event", 45_000);
      const ids = hooks.received.filter((r) => r.path === "/crash").map((r) => r.headers["webhook-id"]);
      assert.equal(new Set(ids).size, answered.length, "one event per answered change");
    } finally {
      await server.stop();
    }
  });

  describe("two more instances on the same database", () => {
    const pair = withPair();
    it("three dispatchers deliver each of 60 events once", async () => {
      const { key } = await personalKey();
      created(
        await http("POST", "/v1/webhooks", {
          key,
          json: { url: `${hooks.base}/three`, events: ["dynqrcode.created"] },
        }),
      );
      for (const base of [pair.a.base, pair.b.base]) {
        const r = await fetch(`${base}/v1/dynqrcodes/batch`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify({
            dynqrcodes: Array.from({ length: 30 }, (_, i) => ({
              destination_url: `https://example.com/three/${i}`,
              name: `three ${i}`,
            })),
          }),
        });
        assert.equal(r.status, 201);
        await r.arrayBuffer();
      }
      const mine = () => hooks.received.filter((r) => r.path === "/three");
      await until(() => mine().length >= 60, "60 deliveries");
      await new Promise((r) => setTimeout(r, 1000)); // no duplicate follows
      assert.equal(mine().length, 60);
      assert.equal(new Set(mine().map((r) => r.headers["webhook-id"])).size, 60);
    });
  });

  it("the outbox keeps events 30 days, then removes them with their deliveries (pending and resent ones stay)", async () => {
    const { key, user } = await personalKey();
    const hook = created(
      await http("POST", "/v1/webhooks", { key, json: { url: `${hooks.base}/old`, events: ["qrcode.created"] } }),
    );
    const send = async () => {
      await new Promise((r) => setTimeout(r, 250)); // within the key's rate
      const r = await http("POST", `/v1/webhooks/${hook.webhook_id}/test`, { key });
      assert.equal(r.status, 202, r.text);
      return (r.body as { event_id: string }).event_id;
    };
    const [delivered, waiting, resent] = [await send(), await send(), await send()];
    for (
      let tries = 0;
      (await db.webhookDelivery.count({
        where: { eventId: { in: [delivered, waiting, resent] }, status: "delivered" },
      })) < 3;
      tries++
    ) {
      assert.ok(tries < 100, "all three delivered");
      await new Promise((r) => setTimeout(r, 100));
    }
    // The second as if its receiver were still failing: an attempt due in an hour.
    await db.webhookDelivery.updateMany({
      where: { eventId: waiting },
      data: { status: "pending", nextAttemptAt: new Date(Date.now() + 3600_000) },
    });
    const day = 24 * 3600_000;
    // "Resend" renews the event's time: the outbox keeps it 30 days from then, like the new delivery.
    const first = await db.webhookDelivery.findFirstOrThrow({ where: { eventId: resent } });
    const stored = await db.webhookEvent.findUniqueOrThrow({ where: { id: resent } });
    await new Promise((r) => setTimeout(r, 20));
    const { delivery_id } = await resendDelivery(await actorFor(user.id, "personal", null), hook.webhook_id, first.id);
    assert.ok(
      (await db.webhookEvent.findUniqueOrThrow({ where: { id: resent } })).createdAt > stored.createdAt,
      "renewed",
    );
    await db.webhookEvent.update({ where: { id: resent }, data: { createdAt: new Date(Date.now() + 20 * day) } }); // as if resent 20 days on
    assert.equal(await cleanOutbox(new Date(Date.now() + 29 * day)), 0, "nothing before 30 days");
    assert.ok((await cleanOutbox(new Date(Date.now() + 31 * day))) >= 1);
    assert.equal(await db.webhookEvent.count({ where: { id: delivered } }), 0);
    assert.equal(await db.webhookDelivery.count({ where: { eventId: delivered } }), 0);
    assert.equal(
      await db.webhookEvent.count({ where: { id: waiting } }),
      1,
      "an event that still waits for an attempt stays",
    );
    assert.equal(await db.webhookEvent.count({ where: { id: resent } }), 1, "a resent event stays");
    assert.equal(
      await db.webhookDelivery.count({ where: { eventId: resent, id: { not: delivery_id } } }),
      0,
      "its first delivery went",
    );
  });
});
