// The MCP server (contract: "For agents: an MCP server"), through the official TypeScript SDK's
// client over Streamable HTTP: its tools are the /v1 routes by operationId, and a call is answered
// as /v1 answers the same request with the same key (answers, errors, limits, idempotency, log).
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { openApiDocument } from "../../server/api/openapi";
import { db } from "../../server/platform/db";
import { BASE_URL, http, makeTeam, personalKey, revokeKey } from "../helpers";

const clients: Client[] = [];
after(() => Promise.all(clients.map((c) => c.close())));

/** A connected client presenting `key` as the README says (`Authorization: Bearer`, or `x-api-key`). */
async function connect(key: string, header: "bearer" | "x-api-key" = "bearer"): Promise<Client> {
  const headers: Record<string, string> =
    header === "bearer" ? { Authorization: `Bearer ${key}` } : { "x-api-key": key };
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${BASE_URL}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const textOf = (result: CallToolResult) => {
  const [first] = result.content;
  assert.equal(first.type, "text");
  return first.type === "text" ? first.text : "";
};
const jsonOf = (result: CallToolResult) => JSON.parse(textOf(result)) as Record<string, unknown>;

describe("MCP over Streamable HTTP", () => {
  it("lists one tool per /v1 operation, by operationId, with the document's parameters and body in its schema", async () => {
    const { key } = await personalKey();
    const { tools } = await (await connect(key)).listTools();
    const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, { operationId: string }>> };
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    assert.deepEqual(tools.map((t) => t.name).sort(), [...operations].sort());
    const create = tools.find((t) => t.name === "dynqrcodes-create")!;
    // destination_url only for type url (contact cards and link pages have content instead).
    assert.deepEqual(create.inputSchema.required, ["name"]);
    assert.ok(create.inputSchema.properties?.style && create.inputSchema.properties["Idempotency-Key"]);
    const analytics = tools.find((t) => t.name === "dynqrcodes-analytics")!;
    assert.deepEqual(Object.keys(analytics.inputSchema.properties ?? {}), ["code", "from", "to", "tz", "granularity"]);
    assert.match(analytics.description ?? "", /^GET \/v1\/dynqrcodes\/\{code\}\/analytics/);
  });

  it("create, list, get and analytics answer as /v1 does; a validation error is isError with the contract's body", async () => {
    const { key } = await personalKey();
    const client = await connect(key, "x-api-key");
    const created = await call(client, "dynqrcodes-create", {
      name: "Menu",
      destination_url: "https://example.com/menu",
    });
    assert.equal(created.isError, false);
    assert.equal(created._meta?.status, 201);
    const record = (jsonOf(created).created as { code: string; destination_url: string }[])[0];
    assert.equal(record.destination_url, "https://example.com/menu");

    const listed = jsonOf(await call(client, "dynqrcodes-list", { limit: 10 }));
    const viaV1 = await http("GET", "/v1/dynqrcodes?limit=10", { key });
    assert.deepEqual(listed, viaV1.body);
    assert.equal((listed.dynqrcodes as { code: string }[])[0].code, record.code);

    // The record as the create answered it (one /v1 call fewer: the test keeps within the key's burst).
    const got = await call(client, "dynqrcodes-get", { code: record.code });
    assert.deepEqual([got.isError, jsonOf(got)], [false, record]);
    const analytics = jsonOf(await call(client, "dynqrcodes-analytics", { code: record.code, tz: "Asia/Kolkata" }));
    assert.deepEqual(
      analytics,
      (await http("GET", `/v1/dynqrcodes/${record.code}/analytics?tz=Asia/Kolkata`, { key })).body,
    );

    const bad = await call(client, "dynqrcodes-create", { name: "Bad", destination_url: "not a url" });
    const badViaV1 = await http("POST", "/v1/dynqrcodes", { key, json: { name: "Bad", destination_url: "not a url" } });
    assert.equal(badViaV1.status, 400);
    assert.deepEqual([bad.isError, bad._meta?.status, jsonOf(bad)], [true, 400, badViaV1.body]);
    const unknown = await call(client, "dynqrcodes-list", { colour: "red" });
    assert.deepEqual([unknown.isError, jsonOf(unknown)], [true, { error: "Unknown query parameter: colour" }]);
    const missing = await call(client, "dynqrcodes-analytics", { code: "Zz9Zz9Zz" });
    assert.deepEqual([missing.isError, missing._meta?.status], [true, 404]);
  });

  // A key of its own: the calls above spend most of a key's burst.
  it("an image and a CSV export come back as embedded resources", async () => {
    const { key } = await personalKey();
    const created = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { name: "Menu", destination_url: "https://example.com/menu" },
    });
    const record = (created.body as { created: { code: string }[] }).created[0];
    const files = await connect(key, "x-api-key");
    const image = await call(files, "dynqrcodes-image", { code: record.code, format: "png", size: 300 });
    const [resource] = image.content;
    assert.equal(resource.type, "resource", JSON.stringify(image.content).slice(0, 300));
    if (resource.type !== "resource" || !("blob" in resource.resource)) throw new Error("an embedded blob");
    assert.equal(resource.resource.mimeType, "image/png");
    assert.match(resource.resource.uri, new RegExp(`/v1/dynqrcodes/${record.code}/image\\?format=png&size=300$`));
    const png = Buffer.from(resource.resource.blob, "base64");
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const csv = (await call(files, "dynqrcodes-export")).content[0];
    assert.ok(csv.type === "resource" && "blob" in csv.resource && csv.resource.mimeType === "text/csv");
    assert.match(Buffer.from(csv.resource.blob, "base64").toString("utf8"), new RegExp(record.code));
  });

  it("an Idempotency-Key argument replays the first answer; writes are on the team's log as by /v1", async () => {
    const team = await makeTeam();
    const client = await connect(team.adminKey);
    const args = { name: "Once", destination_url: "https://example.com/once", "Idempotency-Key": "mcp-once-1" };
    const first = await call(client, "dynqrcodes-create", args);
    const again = await call(client, "dynqrcodes-create", args);
    assert.equal(textOf(again), textOf(first));
    assert.equal((again._meta?.headers as Record<string, string>)["Idempotent-Replayed"], "true");
    const code = (jsonOf(first).created as { code: string }[])[0].code;
    assert.equal(await db.dynamicCode.count({ where: { teamId: team.id } }), 1, "replayed, not created again");
    const viaV1 = await http("POST", "/v1/dynqrcodes", {
      key: team.adminKey,
      json: { name: "Twice", destination_url: "https://example.com/twice" },
    });
    const entries = await db.activityEntry.findMany({
      where: { teamId: team.id, action: "code.created" },
      orderBy: { id: "asc" },
    });
    const seen = entries.map((e) => [e.actorId, e.actorLabel, (JSON.parse(e.detail ?? "{}") as { via: string }).via]);
    assert.deepEqual(
      entries.map((e) => e.target),
      [code, (viaV1.body as { created: { code: string }[] }).created[0].code],
    );
    assert.deepEqual(seen[0], seen[1], "named as for /v1");
    assert.deepEqual(seen[0].slice(0, 1).concat(seen[0][2]), [team.admin.id, "API"]);
  });

  it("a burst past the key's rate limit is answered as /v1 answers it: 429's body, with Retry-After", async () => {
    const { key } = await personalKey();
    const client = await connect(key);
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 30 }, () => call(client, "webhooks-list")));
    const seconds = (Date.now() - started) / 1000;
    const limited = results.filter((r) => r.isError);
    // A personal key's bucket: 10 at once, 5 more a second (server/rate-limit), as on /v1.
    assert.ok(30 - limited.length <= 10 + Math.ceil(5 * seconds), `${30 - limited.length} passed in ${seconds} s`);
    assert.ok(limited.length >= 1 && limited.length < 30, `${limited.length} of 30 limited`);
    assert.deepEqual(jsonOf(limited[0]), { error: "Rate limit exceeded" });
    assert.equal(limited[0]._meta?.status, 429);
    assert.match((limited[0]._meta?.headers as Record<string, string>)["Retry-After"], /^\d+$/);
  });

  it("a missing, unknown or revoked key is refused with /v1's 401 before any MCP work", async () => {
    const { key, keyId, user } = await personalKey();
    await connect(key); // works while the key is live
    assert.equal(await revokeKey(keyId, user.id), true);
    await assert.rejects(connect(key), /401|revoked/);
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    };
    const tries: Record<string, string>[] = [
      { "x-api-key": key },
      { authorization: `Bearer ${key}` },
      {},
      { "x-api-key": "qrp_nope" },
    ];
    for (const headers of tries) {
      const res = await fetch(`${BASE_URL}/mcp`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(initialize),
      });
      const v1 = await fetch(`${BASE_URL}/v1/webhooks`, {
        headers: "authorization" in headers ? { "x-api-key": key } : headers,
      });
      assert.deepEqual([res.status, await res.json()], [401, await v1.json()], JSON.stringify(headers));
    }
  });

  it("GET /mcp opens the server's event stream for a valid key, and refuses a revoked one first", async () => {
    const { key, keyId, user } = await personalKey();
    const stop = new AbortController();
    const res = await fetch(`${BASE_URL}/mcp`, {
      headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" },
      signal: stop.signal,
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
    stop.abort();
    await revokeKey(keyId, user.id);
    const refused = await fetch(`${BASE_URL}/mcp`, { headers: { "x-api-key": key, accept: "text/event-stream" } });
    assert.deepEqual([refused.status, await refused.json()], [401, { error: "API key has been revoked" }]);
  });

  it("a body over 1 MiB is refused with 413, as by /v1", async () => {
    const { key } = await personalKey();
    const res = await fetch(`${BASE_URL}/mcp`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(1024 * 1024) } }),
    });
    assert.deepEqual([res.status, await res.json()], [413, { error: "The body must be at most 1 MiB" }]);
  });
});
