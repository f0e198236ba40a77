// Webhook signing secrets at rest (issue 37): stored sealed, as the two-factor secrets are
// (server/webhooks/signing-secret.ts), so the database alone signs nothing; rows stored in
// plain text before sealing are sealed when a server's dispatcher starts, and still sign; a
// secret that cannot be opened (NEXTAUTH_SECRET changed) disables its endpoint with the reason.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { startServer } from "../../scripts/harness";
import { db } from "../../server/platform/db";
import { http, personalKey, until } from "../helpers";

type Hook = { webhook_id: string; secret: string };

/** The secret column as the database holds it. */
const storedSecret = async (id: string) =>
  (
    await db.$queryRawUnsafe<{ secret: string }[]>(
      `SELECT "secret" FROM "WebhookEndpoint" WHERE "id" = '${id.replace(/'/g, "")}'`,
    )
  )[0].secret;

async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 15_000; !(await condition()); await new Promise((r) => setTimeout(r, 100))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

describe("webhook signing secrets at rest", () => {
  const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  let base = "";
  let key = "";
  before(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    ({ key } = await personalKey());
  });
  after(() => {
    receiver.closeAllConnections();
    receiver.close();
  });

  const create = async (path: string): Promise<Hook> => {
    const r = await http("POST", "/v1/webhooks", { key, json: { url: `${base}${path}`, events: ["qrcode.created"] } });
    assert.equal(r.status, 201, r.text);
    return (r.body as { webhook: Hook }).webhook;
  };
  /** Sends a test event to the endpoint and checks that it arrives signed with `secret`. */
  const deliveredSigned = async (hook: Hook, path: string) => {
    const sent = await http("POST", `/v1/webhooks/${hook.webhook_id}/test`, { key });
    assert.equal(sent.status, 202);
    const eventId = (sent.body as { event_id: string }).event_id;
    await until(() => received.some((r) => r.headers["webhook-id"] === eventId), `the test event at ${path}`);
    const got = received.find((r) => r.headers["webhook-id"] === eventId)!;
    assert.equal(got.path, path);
    new Webhook(hook.secret).verify(got.body, {
      "webhook-id": eventId,
      "webhook-timestamp": String(got.headers["webhook-timestamp"]),
      "webhook-signature": String(got.headers["webhook-signature"]),
    });
  };

  it("the row holds the secret sealed, never whsec_ or its key; deliveries verify with the secret shown on create", async () => {
    const hook = await create("/sealed");
    const stored = await storedSecret(hook.webhook_id);
    assert.match(stored, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.ok(!stored.includes("whsec_"), stored);
    for (const form of ["base64", "base64url", "hex"] as const)
      assert.ok(!stored.includes(Buffer.from(hook.secret.slice(6), "base64").toString(form).replace(/=+$/, "")), form);
    assert.equal(
      await db.webhookEndpoint.count({ where: { secret: { startsWith: "whsec_" } } }),
      0,
      "no row in plain text",
    );
    await deliveredSigned(hook, "/sealed");
  });

  it("a row stored in plain text before sealing is sealed when a server starts, and still signs", async () => {
    const hook = await create("/legacy");
    await db.webhookEndpoint.update({ where: { id: hook.webhook_id }, data: { secret: hook.secret } });
    await deliveredSigned(hook, "/legacy"); // not sealed yet: read as it is
    const another = await startServer();
    try {
      await waitFor(async () => !(await storedSecret(hook.webhook_id)).startsWith("whsec_"), "the start-up pass");
    } finally {
      await another.stop();
    }
    assert.match(await storedSecret(hook.webhook_id), /^v1\./);
    await deliveredSigned(hook, "/legacy");
  });

  it("a secret that cannot be opened (another NEXTAUTH_SECRET): the endpoint is disabled with the reason, nothing is sent", async () => {
    const hook = await create("/lost");
    const part = (bytes: number) => randomBytes(bytes).toString("base64url");
    await db.webhookEndpoint.update({
      where: { id: hook.webhook_id },
      data: { secret: `v1.${part(12)}.${part(16)}.${part(50)}` },
    });
    assert.equal((await http("POST", `/v1/webhooks/${hook.webhook_id}/test`, { key })).status, 202);
    type Listed = { webhook_id: string; enabled: boolean; disabled_reason: string | null };
    const mine = async () =>
      ((await http("GET", "/v1/webhooks", { key })).body as { webhooks: Listed[] }).webhooks.find(
        (w) => w.webhook_id === hook.webhook_id,
      )!;
    await waitFor(async () => !(await mine()).enabled, "the endpoint disabled");
    assert.equal(
      (await mine()).disabled_reason,
      "Its signing secret cannot be read (NEXTAUTH_SECRET changed): create the webhook again",
    );
    const deliveries = (await http("GET", `/v1/webhooks/${hook.webhook_id}/deliveries`, { key })).body as {
      deliveries: { status: string }[];
    };
    assert.deepEqual(
      deliveries.deliveries.map((d) => d.status),
      ["failed"],
    );
    assert.ok(!received.some((r) => r.path === "/lost"), "nothing sent");
  });
});
