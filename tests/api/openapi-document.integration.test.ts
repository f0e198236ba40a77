// The served OpenAPI document says what the server does (issue 39): an absolute server URL of
// the origin it was served from; enums where the server takes a closed list; no schema named
// `Error`; no fixed Idempotency-Key example for Swagger UI to pre-fill; and the webhook payloads
// as OpenAPI 3.1 `webhooks`, against which every payload a real receiver gets here is checked.
import assert from "node:assert/strict";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { reviewDrafts } from "../../server/teams/draftReview";
import { DELIVERED_EVENT_TYPES, EVENT_TYPES } from "../../server/webhooks/event-types";
import { BASE_URL, http, makeTeam, personalKey, until } from "../helpers";

type Schema = Record<string, unknown>;
type Doc = {
  servers: { url: string; "x-internal"?: boolean }[];
  paths: Record<
    string,
    Record<string, { parameters?: { name?: string; in?: string; example?: unknown; $ref?: string; schema?: Schema }[] }>
  >;
  components: { schemas: Record<string, Schema>; parameters: Record<string, Schema> };
  webhooks: Record<string, { post: { requestBody: { content: { "application/json": { schema: Schema } } } } }>;
};

/** GET /v1/openapi.json with the Host header a browser or proxy would send. */
function documentFor(host: string): Promise<Doc> {
  return new Promise((resolve, reject) => {
    const req = request(`${BASE_URL}/v1/openapi.json`, { headers: { host } }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve(JSON.parse(body) as Doc));
    });
    req.on("error", reject).end();
  });
}

let doc: Doc;
before(async () => {
  doc = (await http("GET", "/v1/openapi.json")).body as Doc;
});

describe("the document's server", () => {
  it("is the absolute /v1 of the origin the document was fetched from, for any name the service is reached by", async () => {
    assert.deepEqual(
      doc.servers.map((s) => [s.url, s["x-internal"]]),
      [[`${BASE_URL}/v1`, false]],
    );
    const other = await documentFor("docs.qr-records.test:8443");
    assert.deepEqual(
      other.servers.map((s) => s.url),
      ["http://docs.qr-records.test:8443/v1"],
    );
    // A Host that is no host name is not echoed.
    assert.deepEqual((await documentFor("bad host/<x>")).servers.length, 1);
    assert.doesNotMatch((await documentFor("bad host/<x>")).servers[0].url, /[<> ]/);
  });
});

describe("the document says what the server enforces", () => {
  const parameter = (path: string, method: string, name: string) =>
    doc.paths[path][method].parameters!.find((p) => p.name === name)!;

  it("no schema is named Error (it shadows the language's own in generated clients); ApiError is what errors answer", () => {
    assert.equal(doc.components.schemas.Error, undefined);
    assert.deepEqual(doc.components.schemas.ApiError.required, ["error"]);
    assert.doesNotMatch(JSON.stringify(doc), /#\/components\/schemas\/Error"/);
  });

  it("granularity is the enum day, hour; another value is refused", async () => {
    assert.deepEqual(parameter("/dynqrcodes/{code}/analytics", "get", "granularity").schema!.enum, ["day", "hour"]);
    const { key } = await personalKey();
    const code = (
      (await http("POST", "/v1/dynqrcodes", { key, json: { name: "G", destination_url: "https://example.com/g" } }))
        .body as { created: { code: string }[] }
    ).created[0].code;
    const refused = await http("GET", `/v1/dynqrcodes/${code}/analytics?granularity=week`, { key });
    assert.deepEqual([refused.status, refused.body], [400, { error: "granularity must be day or hour" }]);
  });

  it("event names are enums: the subscribable ones in endpoints, with webhook.test in deliveries; a name twice is refused", async () => {
    const body = doc.paths["/webhooks"].post as unknown as {
      requestBody: { content: { "application/json": { schema: { properties: { events: Schema } } } } };
    };
    const events = body.requestBody.content["application/json"].schema.properties.events;
    assert.deepEqual((events.items as Schema).enum, [...EVENT_TYPES]);
    assert.equal(events.maxItems, EVENT_TYPES.length);
    assert.deepEqual(((doc.components.schemas.Webhook.properties as Schema).events as { items: Schema }).items.enum, [
      ...EVENT_TYPES,
    ]);
    assert.deepEqual(((doc.components.schemas.WebhookDelivery.properties as Schema).type as Schema).enum, [
      ...DELIVERED_EVENT_TYPES,
    ]);
    assert.ok(DELIVERED_EVENT_TYPES.includes("webhook.test" as never));
    const { key } = await personalKey();
    const twice = await http("POST", "/v1/webhooks", {
      key,
      json: { url: "https://93.184.215.14/h", events: ["scan.created", "scan.created"] },
    });
    assert.deepEqual(
      [twice.status, twice.body],
      [400, { error: `events must name each event once (at most ${EVENT_TYPES.length})` }],
    );
  });

  it("Idempotency-Key has no example a form would pre-fill", () => {
    const key = doc.components.parameters.IdempotencyKey;
    assert.equal(key.example, undefined);
    assert.equal(key.examples, undefined);
    assert.equal((key.schema as Schema).example, undefined);
    assert.equal((key.schema as Schema).examples, undefined);
  });

  it("the lists' filters have no example a form would pre-fill (Try it out would list a filtered or refused page)", () => {
    for (const path of ["/qrcodes", "/dynqrcodes"]) {
      const query = (doc.paths[path].get.parameters ?? []).filter((p) => p.in === "query");
      assert.ok(query.some((p) => p.name === "search") && query.some((p) => p.name === "created_before"), path);
      for (const p of query) {
        assert.equal(p.example, undefined, `${path} ${p.name}`);
        assert.equal((p.schema as Schema | undefined)?.example, undefined, `${path} ${p.name}`);
      }
    }
  });
});

/** The body of a 2xx answer (else the test fails with the answer). */
async function ok<T>(answer: Promise<{ status: number; body: unknown }>): Promise<T> {
  const { status, body } = await answer;
  assert.ok(status >= 200 && status < 300, `${status} ${JSON.stringify(body)}`);
  return body as T;
}

describe("webhook payloads as OpenAPI 3.1 webhooks", () => {
  let receiver: Server;
  let base: string;
  const received: { type: string; body: unknown }[] = [];
  before(async () => {
    receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const parsed = JSON.parse(body) as { type: string };
        received.push({ type: parsed.type, body: parsed });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  after(() => {
    receiver.closeAllConnections();
    receiver.close();
  });

  it("one operation per event the service sends, and every payload received matches its event's schema", async () => {
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [...DELIVERED_EVENT_TYPES].sort());
    const team = await makeTeam();
    const writer = await team.addWriter();
    const hook = (
      await ok<{ webhook: { webhook_id: string } }>(
        http("POST", "/v1/webhooks", { key: team.adminKey, json: { url: `${base}/all`, events: [...EVENT_TYPES] } }),
      )
    ).webhook;
    const key = team.adminKey;
    const statics = (
      await ok<{ created: { qr_id: string }[] }>(
        http("POST", "/v1/qrcodes", { key, json: { url: "https://example.com/s", name: "S" } }),
      )
    ).created;
    assert.equal(
      (await http("PATCH", `/v1/qrcodes/${statics[0].qr_id}`, { key, json: { metadata: { k: "v" } } })).status,
      200,
    );
    assert.equal((await http("DELETE", `/v1/qrcodes/${statics[0].qr_id}`, { key })).status, 200);
    const dynamic = (
      await ok<{ created: { code: string }[] }>(
        http("POST", "/v1/dynqrcodes", {
          key,
          json: { name: "D", destination_url: "https://example.com/d", expires_at: null },
        }),
      )
    ).created[0];
    // A business key's code is a draft until approved; approved, its short link answers.
    await reviewDrafts(team.admin.id, "approve", [{ kind: "dynamic", id: dynamic.code }]);
    assert.equal(
      (await http("PATCH", `/v1/dynqrcodes/${dynamic.code}`, { key, json: { name: "D2", utm: { source: "qr" } } }))
        .status,
      200,
    );
    assert.equal(
      (
        await http("GET", `/q/${dynamic.code}`, {
          headers: {
            "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1",
          },
        })
      ).status,
      302,
    );
    const drafts = (
      await ok<{ created: { code: string }[] }>(
        http("POST", "/v1/dynqrcodes/batch", {
          key: writer.key,
          json: {
            dynqrcodes: [
              { destination_url: "https://example.com/y", name: "Y" },
              { destination_url: "https://example.com/n", name: "N" },
            ],
          },
        }),
      )
    ).created;
    await reviewDrafts(team.admin.id, "approve", [{ kind: "dynamic", id: drafts[0].code }]);
    await reviewDrafts(team.admin.id, "reject", [{ kind: "dynamic", id: drafts[1].code }], "Not needed");
    assert.equal((await http("DELETE", `/v1/dynqrcodes/${dynamic.code}`, { key })).status, 200);
    assert.equal((await http("POST", `/v1/webhooks/${hook.webhook_id}/test`, { key })).status, 202);

    await until(
      () => DELIVERED_EVENT_TYPES.every((type) => received.some((r) => r.type === type)),
      "a payload of every event type",
      30_000,
    );
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const { type, body } of received) {
      const operation = doc.webhooks[type];
      assert.ok(operation, `${type}: no webhook operation in the document`);
      const validate = ajv.compile({
        ...operation.post.requestBody.content["application/json"].schema,
        components: doc.components,
      });
      assert.ok(validate(body), `${type}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
    }
  });
});
