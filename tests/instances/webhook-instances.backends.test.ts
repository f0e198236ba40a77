// Webhooks (contract: "Webhooks") beyond one server, against a real receiver
// (tests/webhook-receiver.ts): scan.created written with the scan's batch, a receiver that does
// not answer, and kill -9 right after changes were answered (three dispatchers on one database:
// webhook-dispatchers.backends.test.ts).
// Endpoints and deliveries on the run's server: tests/api/webhooks.backends.test.ts.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer } from "../../scripts/harness";
import { db } from "../../server/platform/db";
import type { ScanCreated } from "../../server/webhooks/payload";
import { http, personalKey, until } from "../helpers";
import { created, DELIVERY_WAIT_MS, receiver } from "../webhook-receiver";
import { UA } from "../agents";

const IPHONE = UA.iphone;
const FIREFOX = UA.firefox;
type ScanEventBody = { type: string; timestamp: string; data: ScanCreated };

describe("webhooks: scans, timeouts, crashes", () => {
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
    await until(() => events().length >= 3, "three scan events", DELIVERY_WAIT_MS);
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
    // The first attempt may wait on a claim too (DELIVERY_WAIT_MS), then takes 10 s.
    let row = await db.webhookDelivery.findFirst({ where: { eventId: event_id } });
    for (
      ;
      Date.now() - sent < DELIVERY_WAIT_MS + 10_000 && !(row && row.attempts >= 1);
      await new Promise((r) => setTimeout(r, 200))
    )
      row = await db.webhookDelivery.findFirst({ where: { eventId: event_id } });
    assert.ok(row && row.attempts >= 1, "the attempt ended");
    assert.equal(row.responseStatus, null);
    assert.equal(row.responseBody, "no answer within 10 s");
    assert.ok(row.latencyMs! >= 10_000 && row.latencyMs! < 11_500, `latency ${row.latencyMs} ms`);
    hooks.hang.delete("/hang");
    await until(
      () => hooks.received.filter((r) => r.path === "/hang" && r.headers["webhook-id"] === event_id).length >= 2,
      "the retry",
      DELIVERY_WAIT_MS,
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
});
