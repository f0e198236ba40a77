// Webhooks: resend and rotate (contract, Part 3), against a real receiver (tests/webhook-receiver.ts)
// whose signatures the `standardwebhooks` package verifies. The end of a rotation's 24 hours is
// seen through a server of this file's own whose clock runs a day behind (CLOCK_OFFSET_SECONDS) on
// the same database: a rotation made there ended its overlap before "now" for every dispatcher
// of the run, so whichever of them makes the attempt signs with the new secret only (no sleeping).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { startServer, type RunningServer } from "../../scripts/harness";
import { db } from "../../server/platform/db";
import { http, makeTeam, personalKey, until } from "../helpers";
import { DELIVERY_WAIT_MS, receiver } from "../webhook-receiver";

type Hook = { webhook_id: string; secret: string; url: string };
const DAY = 24 * 3600;

let hooks: Awaited<ReturnType<typeof receiver>>;
before(async () => (hooks = await receiver()));
after(() => hooks.close());

async function endpoint(key: string, path: string): Promise<Hook> {
  const r = await http("POST", "/v1/webhooks", {
    key,
    json: { url: `${hooks.base}${path}`, events: ["scan.created"] },
  });
  assert.equal(r.status, 201, r.text);
  return (r.body as { webhook: Hook }).webhook;
}

/** Sends a webhook.test event to the endpoint and returns the request its receiver got. */
async function testEvent(key: string, hook: Hook, path: string) {
  const seen = hooks.received.length;
  const r = await http("POST", `/v1/webhooks/${hook.webhook_id}/test`, { key });
  assert.equal(r.status, 202, r.text);
  await until(() => hooks.received.slice(seen).some((q) => q.path === path), "the test event", DELIVERY_WAIT_MS);
  return hooks.received.slice(seen).find((q) => q.path === path)!;
}

const verifies = (secret: string, request: { body: string; headers: Record<string, unknown> }) => {
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

describe("POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry", () => {
  it("sends the delivery's event again as a new delivery with the same webhook-id; 404 for anything not the library's", async () => {
    const { key } = await personalKey();
    const hook = await endpoint(key, "/retry");
    const first = await testEvent(key, hook, "/retry");
    const log = async () =>
      (
        (await http("GET", `/v1/webhooks/${hook.webhook_id}/deliveries`, { key })).body as {
          deliveries: { id: string; event_id: string; status: string }[];
        }
      ).deliveries;
    const [delivered] = await log();
    assert.equal(delivered.event_id, first.headers["webhook-id"]);

    const r = await http("POST", `/v1/webhooks/${hook.webhook_id}/deliveries/${delivered.id}/retry`, { key });
    assert.equal(r.status, 202, r.text);
    const { delivery_id } = r.body as { delivery_id: string };
    assert.match(delivery_id, /^dlv_/);
    assert.notEqual(delivery_id, delivered.id);
    await until(
      () => hooks.received.filter((q) => q.path === "/retry").length === 2,
      "the retried attempt",
      DELIVERY_WAIT_MS,
    );
    const again = hooks.received.filter((q) => q.path === "/retry")[1];
    assert.equal(again.headers["webhook-id"], first.headers["webhook-id"], "receivers deduplicate by it");
    assert.equal(again.body, first.body);
    assert.ok(verifies(hook.secret, again));
    for (let tries = 0; (await log()).find((d) => d.id === delivery_id)?.status !== "delivered"; tries++) {
      assert.ok(tries < 100, "the new delivery is in the log, delivered");
      await new Promise((res) => setTimeout(res, 100));
    }
    assert.equal((await log()).length, 2, "the first delivery stays in the log");

    const other = await personalKey();
    const otherHook = await endpoint(other.key, "/other");
    for (const [path, error, as] of [
      [`/v1/webhooks/${hook.webhook_id}/deliveries/dlv_nope/retry`, "Delivery not found", key],
      [`/v1/webhooks/wh_nope/deliveries/${delivered.id}/retry`, "Webhook not found", key],
      [`/v1/webhooks/${hook.webhook_id}/deliveries/${delivered.id}/retry`, "Webhook not found", other.key],
      [`/v1/webhooks/${otherHook.webhook_id}/deliveries/${delivered.id}/retry`, "Delivery not found", other.key],
    ] as const) {
      const refused = await http("POST", path, { key: as });
      assert.deepEqual([refused.status, refused.body], [404, { error }], path);
    }
    assert.equal(hooks.received.filter((q) => q.path === "/retry").length, 2, "nothing more was sent");
  });
});

describe("POST /v1/webhooks/{webhook_id}/rotate-secret", () => {
  let behind: RunningServer;
  before(async () => {
    behind = await startServer({ CLOCK_OFFSET_SECONDS: String(-(DAY + 100)) });
  });
  after(() => behind.stop());

  it("a new secret shown once; for 24 hours both signatures, so either secret verifies; then the new one only", async () => {
    const { key } = await personalKey();
    const hook = await endpoint(key, "/rotate");
    const r = await http("POST", `/v1/webhooks/${hook.webhook_id}/rotate-secret`, { key });
    assert.equal(r.status, 200, r.text);
    const rotated = (r.body as { webhook: Hook & Record<string, unknown> }).webhook;
    assert.match(rotated.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.notEqual(rotated.secret, hook.secret);
    assert.deepEqual({ ...rotated, secret: hook.secret }, { ...hook, created_at: rotated.created_at });
    const stored = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: hook.webhook_id } });
    assert.ok(
      !stored.secret.includes(rotated.secret.slice(6)) && !stored.previousSecret!.includes(hook.secret.slice(6)),
    );
    const listed = (await http("GET", "/v1/webhooks", { key })).body as { webhooks: Record<string, unknown>[] };
    assert.equal(listed.webhooks[0].secret, undefined, "shown only once");

    const during = await testEvent(key, hook, "/rotate");
    assert.equal(String(during.headers["webhook-signature"]).split(" ").length, 2);
    assert.ok(verifies(hook.secret, during), "a receiver holding only the old secret verifies");
    assert.ok(verifies(rotated.secret, during), "a receiver holding only the new secret verifies");
    assert.ok(!verifies(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, during), "another secret does not");

    // Rotated again where it is a day earlier: that overlap ended before now.
    const res = await fetch(`${behind.base}/v1/webhooks/${hook.webhook_id}/rotate-secret`, {
      method: "POST",
      headers: { "x-api-key": key },
    });
    assert.equal(res.status, 200);
    const newest = ((await res.json()) as { webhook: Hook }).webhook.secret;
    const later = await testEvent(key, hook, "/rotate");
    assert.equal(String(later.headers["webhook-signature"]).split(" ").length, 1);
    assert.ok(verifies(newest, later), "the new secret verifies");
    assert.ok(!verifies(rotated.secret, later), "the one it replaced no longer does, 24 hours on");
  });

  it("a team's rotation is on its activity log; a writer may not rotate; 404 for another library's endpoint", async () => {
    const team = await makeTeam();
    const hook = await endpoint(team.adminKey, "/team");
    assert.equal(
      (await http("POST", `/v1/webhooks/${hook.webhook_id}/rotate-secret`, { key: team.adminKey })).status,
      200,
    );
    const entry = await db.activityEntry.findFirstOrThrow({
      where: { teamId: team.id, action: "webhook.secret_rotated" },
    });
    assert.equal(entry.target, hook.url);
    assert.equal(entry.actorId, team.admin.id);
    assert.ok(!JSON.stringify(entry).includes("whsec_"), "no secret on the log");
    const writer = await team.addWriter();
    const refused = await http("POST", `/v1/webhooks/${hook.webhook_id}/rotate-secret`, { key: writer.key });
    assert.deepEqual([refused.status, refused.body], [403, { error: "Only a team admin can manage webhooks" }]);
    const stranger = await personalKey();
    const missing = await http("POST", `/v1/webhooks/${hook.webhook_id}/rotate-secret`, { key: stranger.key });
    assert.deepEqual([missing.status, missing.body], [404, { error: "Webhook not found" }]);
  });
});
