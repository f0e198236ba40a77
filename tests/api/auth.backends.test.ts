// Every row of the contract's authentication table, and the error shapes of the gate.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { setTier } from "../../server/accounts/users";
import { generateKey, http, makeUser, personalKey, revokeKey } from "../helpers";
import { env } from "../../server/platform/env";

describe("authentication", () => {
  it("no x-api-key header → 401 Missing API key, with a request id", async () => {
    const r = await http("GET", "/v1/qrcodes");
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, { error: "Missing API key" });
    assert.match(r.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
    assert.equal(r.headers.get("content-type"), "application/json; charset=utf-8");
  });

  it("malformed and unknown keys → 401 Invalid API key", async () => {
    for (const key of ["nonsense", "qrp_short", "qrp_" + "A".repeat(40), "qrx_" + "A".repeat(40)]) {
      const r = await http("GET", "/v1/qrcodes", { key });
      assert.equal(r.status, 401, key);
      assert.deepEqual(r.body, { error: "Invalid API key" });
    }
  });

  it("a revoked key → 401 API key has been revoked, at once", async () => {
    const { user, key, keyId } = await personalKey();
    assert.equal((await http("GET", "/v1/qrcodes", { key })).status, 200);
    assert.equal(await revokeKey(keyId, user.id), true);
    const r = await http("GET", "/v1/qrcodes", { key });
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, { error: "API key has been revoked" });
  });

  it("a key that is not active yet → 401 with Retry-After counting down", async () => {
    const user = await makeUser("pro");
    env.keyActivationDelaySeconds = 120;
    const { key } = await generateKey(user.id, "personal");
    env.keyActivationDelaySeconds = 0;
    const r = await http("GET", "/v1/qrcodes", { key });
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, { error: "API key is not active yet" });
    const retry = Number(r.headers.get("retry-after"));
    assert.ok(retry >= 110 && retry <= 120, `Retry-After ${retry}`);
  });

  it("an owner on the Free tier → 403, and the key works again after an upgrade", async () => {
    const { user, key } = await personalKey("pro");
    await setTier(user.email, "free");
    const r = await http("GET", "/v1/qrcodes", { key });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { error: "API access requires a Pro or Business plan" });
    await setTier(user.email, "business");
    assert.equal((await http("GET", "/v1/qrcodes", { key })).status, 200);
  });

  it("a Free account cannot generate a personal key", async () => {
    const user = await makeUser("free");
    await assert.rejects(generateKey(user.id, "personal"), /Pro or Business/);
  });

  it("one live key per account and scope, enforced by the database", async () => {
    const { user } = await personalKey();
    await assert.rejects(generateKey(user.id, "personal"), /revoke it before/);
    // Bypassing the domain code: the unique index still refuses a second live key.
    await assert.rejects(
      db.apiKey.create({
        data: {
          id: `key_dup_${Date.now()}`,
          userId: user.id,
          scope: "personal",
          hashedKey: `x${Date.now()}`,
          prefix: "qrp_xxxx",
          lastFour: "xxxx",
          activeFrom: new Date(),
          live: true,
        },
      }),
    );
  });

  it("keys are stored only as hashes", async () => {
    const { key, keyId } = await personalKey();
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    assert.ok(!JSON.stringify(row).includes(key.slice(4)));
    assert.match(row.hashedKey, /^[0-9a-f]{64}$/);
    assert.equal(`${row.prefix}…${row.lastFour}`, `${key.slice(0, 8)}…${key.slice(-4)}`);
  });

  it("a key's last use is written at once, then at most once a minute", async () => {
    const { key, keyId } = await personalKey();
    const lastUsed = async () => (await db.apiKey.findUniqueOrThrow({ where: { id: keyId } })).lastUsedAt;
    assert.equal(await lastUsed(), null);
    const before = Date.now();
    assert.equal((await http("GET", "/v1/dynqrcodes", { key })).status, 200);
    let first: Date | null = null;
    for (let i = 0; i < 50 && first === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      first = await lastUsed();
    }
    assert.ok(
      first && first.getTime() >= before - 1000 && first.getTime() <= Date.now(),
      `written within a second (${first?.toISOString()})`,
    );
    assert.equal((await http("GET", "/v1/dynqrcodes", { key })).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual(await lastUsed(), first, "the next use within the minute writes nothing");
  });

  it("authentication comes before routing: an unknown route without a key is 401", async () => {
    const r = await http("GET", "/v1/nothing-here");
    assert.equal(r.status, 401);
  });
});

describe("routing and body errors", () => {
  it("unknown route → 404 Not found; wrong method → 405 with Allow", async () => {
    const { key } = await personalKey();
    const missing = await http("GET", "/v1/nothing-here", { key });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: "Not found" });
    const wrong = await http("PUT", "/v1/qrcodes", { key, json: {} });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get("allow"), "GET, POST");
    assert.deepEqual(Object.keys(wrong.body as object), ["error"]);
    // Literal segments are fixed words, never identifiers.
    const literal = await http("DELETE", "/v1/qrcodes/export", { key });
    assert.equal(literal.status, 405);
    assert.equal(literal.headers.get("allow"), "GET");
    const batchGet = await http("GET", "/v1/qrcodes/batch", { key });
    assert.equal(batchGet.status, 405);
    assert.equal(batchGet.headers.get("allow"), "POST, PATCH");
  });

  it("wrong content type → 415; malformed JSON and non-objects → 400; over 1 MiB → 413", async () => {
    const { key } = await personalKey();
    const noType = await http("POST", "/v1/qrcodes", {
      key,
      body: '{"url":"https://a.example","name":"a"}',
      headers: { "content-type": "text/plain" },
    });
    assert.equal(noType.status, 415);
    assert.deepEqual(noType.body, { error: "Content-Type must be application/json" });
    const broken = await http("POST", "/v1/qrcodes", {
      key,
      body: '{"url":',
      headers: { "content-type": "application/json" },
    });
    assert.equal(broken.status, 400);
    assert.deepEqual(broken.body, { error: "The body is not valid JSON" });
    for (const body of ["[1,2]", "null", '"text"', "42"]) {
      const r = await http("POST", "/v1/qrcodes", { key, body, headers: { "content-type": "application/json" } });
      assert.equal(r.status, 400, body);
      assert.deepEqual(r.body, { error: "The body must be a JSON object" });
    }
    const huge = await http("POST", "/v1/qrcodes", {
      key,
      json: { url: "https://a.example", name: "x".repeat(1024 * 1024) },
    });
    assert.equal(huge.status, 413);
    assert.deepEqual(huge.body, { error: "The body must be at most 1 MiB" });
    assert.equal(
      (await http("GET", "/v1/qrcodes", { key })).body &&
        ((await http("GET", "/v1/qrcodes", { key })).body as { qrcodes: unknown[] }).qrcodes.length,
      0,
    );
  });

  it("the OpenAPI document needs no key and lists every route with the key scheme", async () => {
    const r = await http("GET", "/v1/openapi.json");
    assert.equal(r.status, 200);
    const doc = r.body as {
      openapi: string;
      paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>;
      components: { securitySchemes: Record<string, { in: string; name: string }> };
    };
    assert.match(doc.openapi, /^3\./);
    assert.deepEqual(doc.components.securitySchemes.ApiKey, { type: "apiKey", in: "header", name: "x-api-key" });
    const routes = Object.entries(doc.paths)
      .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    assert.deepEqual(routes, [
      "DELETE /domains/{domain}",
      "DELETE /dynqrcodes/{code}",
      "DELETE /qrcodes/{qr_id}",
      "DELETE /style-presets/{name}",
      "DELETE /webhooks/{webhook_id}",
      "GET /bundle",
      "GET /domains",
      "GET /dynqrcodes",
      "GET /dynqrcodes/analytics",
      "GET /dynqrcodes/export",
      "GET /dynqrcodes/images.zip",
      "GET /dynqrcodes/{code}",
      "GET /dynqrcodes/{code}/analytics",
      "GET /dynqrcodes/{code}/analytics/export",
      "GET /dynqrcodes/{code}/image",
      "GET /qrcodes",
      "GET /qrcodes/export",
      "GET /qrcodes/images.zip",
      "GET /qrcodes/{qr_id}",
      "GET /qrcodes/{qr_id}/image",
      "GET /style-presets",
      "GET /style-presets/{name}",
      "GET /webhooks",
      "GET /webhooks/{webhook_id}/deliveries",
      "PATCH /dynqrcodes/batch",
      "PATCH /dynqrcodes/{code}",
      "PATCH /qrcodes/batch",
      "PATCH /qrcodes/{qr_id}",
      "PATCH /style-presets/{name}",
      "PATCH /webhooks/{webhook_id}",
      "POST /bundle",
      "POST /domains",
      "POST /domains/{domain}/verify",
      "POST /dynqrcodes",
      "POST /dynqrcodes/batch",
      "POST /dynqrcodes/batch-delete",
      "POST /qrcodes",
      "POST /qrcodes/batch",
      "POST /qrcodes/batch-delete",
      "POST /style-presets",
      "POST /webhooks",
      "POST /webhooks/{webhook_id}/deliveries/{delivery_id}/retry",
      "POST /webhooks/{webhook_id}/rotate-secret",
      "POST /webhooks/{webhook_id}/test",
    ]);
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        assert.deepEqual(op.security, [{ ApiKey: [] }]);
        assert.ok(op.responses["401"] && op.responses["404"] && op.responses["500"]);
      }
    }
  });
});
