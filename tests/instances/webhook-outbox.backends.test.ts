// The webhook outbox's clean-up (contract: "Webhooks"): events are kept 30 days, then removed
// with their deliveries; pending and resent ones stay. On a database and a server of this file's
// own (tests/tiers.ts, OWN_DATABASE): the clean-up removes every library's old deliveries, and
// on the run's database it would take the other files' delivery logs with them.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/harness";
import { db } from "../../server/platform/db";
import { actorFor } from "../../server/library/libraryItems";
import { cleanOutbox } from "../../server/webhooks/outbox-cleanup";
import { resendDelivery } from "../../server/webhooks/endpoints";
import { http, personalKey } from "../helpers";
import { created, receiver } from "../webhook-receiver";

describe("webhooks: the outbox's clean-up", () => {
  let hooks: Awaited<ReturnType<typeof receiver>>;
  let server: RunningServer;
  before(async () => {
    hooks = await receiver();
    server = await startServer();
  });
  after(async () => {
    await server.stop();
    await hooks.close();
  });

  it("the outbox keeps events 30 days, then removes them with their deliveries (pending and resent ones stay)", async () => {
    const { key, user } = await personalKey();
    const hook = created(
      await http("POST", "/v1/webhooks", {
        key,
        base: server.base,
        json: { url: `${hooks.base}/old`, events: ["qrcode.created"] },
      }),
    );
    const send = async () => {
      await new Promise((r) => setTimeout(r, 250)); // within the key's rate
      const r = await http("POST", `/v1/webhooks/${hook.webhook_id}/test`, { key, base: server.base });
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
