// SIGTERM while a webhook delivery attempt is in flight: the stop waits for its answer and
// records it, so no other instance makes it again when the claim would have expired. On a
// database of its own (tests/tiers.ts, OWN_DATABASE): only the stopped server can hold the attempt.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { startServer } from "../../scripts/harness";
import { db } from "../../server/platform/db";
import { http, personalKey, until } from "../helpers";
import { created } from "../webhook-receiver";

/** Longer than the second the stop gives its background thread to end. */
const ANSWER_AFTER_MS = 2500;

describe("a stop with a delivery attempt in flight", () => {
  it("waits for the receiver's answer and records the attempt as delivered", async () => {
    let received = 0;
    const receiver = createServer((req, res) => {
      req.resume();
      received++;
      setTimeout(() => res.writeHead(204).end(), ANSWER_AFTER_MS);
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const server = await startServer();
    try {
      const { key } = await personalKey();
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/slow`;
      const hook = created(
        await http("POST", "/v1/webhooks", { key, base: server.base, json: { url, events: ["qrcode.created"] } }),
      );
      const sent = await http("POST", `/v1/webhooks/${hook.webhook_id}/test`, { key, base: server.base });
      assert.equal(sent.status, 202, sent.text);
      await until(() => received === 1, "the attempt to reach the receiver");
      assert.equal(await server.stop(), 0);
      const delivery = await db.webhookDelivery.findFirstOrThrow({
        where: { eventId: (sent.body as { event_id: string }).event_id },
      });
      assert.deepEqual(
        [delivery.status, delivery.attempts, delivery.responseStatus, delivery.claimedUntil],
        ["delivered", 1, 204, null],
      );
    } finally {
      await server.stop();
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});
