// The /v1 route table: the dispatcher's matching and the OpenAPI document come from it alone.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openApiDocument } from "../../server/api/openapi";
import { v1Router } from "../../server/api/root";
import { routesFor, V1_ROUTES } from "../../server/api/routes";
import { RESERVED_BACK_HALVES } from "../../server/library/backHalf";

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

describe("the /v1 route table", () => {
  it("the OpenAPI document lists exactly the routes the dispatcher serves", () => {
    const documented = Object.entries(openApiDocument().paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => key(method, path)),
    );
    assert.deepEqual(documented.sort(), V1_ROUTES.map((r) => key(r.method, r.path)).sort());
    assert.equal(new Set(documented).size, documented.length);
  });

  it("every /v1 procedure is a route, and the bundle, CSV, image and ZIP routes are raw routes", () => {
    const procedures = V1_ROUTES.filter((r) => r.kind === "procedure").map((r) =>
      r.kind === "procedure" ? r.name : "",
    );
    assert.deepEqual(procedures.sort(), Object.keys(v1Router._def.procedures).sort());
    assert.deepEqual(
      V1_ROUTES.filter((r) => r.kind === "raw").map((r) => `${r.method} ${r.path}`.replace(/^GET /, "")),
      [
        "/bundle",
        "POST /bundle",
        "/qrcodes/export",
        "/dynqrcodes/export",
        "/dynqrcodes/{code}/analytics/export",
        "/qrcodes/images.zip",
        "/dynqrcodes/images.zip",
        "/qrcodes/{qr_id}/image",
        "/dynqrcodes/{code}/image",
      ],
    );
  });

  it("a literal segment wins over a parameter, whatever the order of declaration", () => {
    assert.deepEqual(
      routesFor("/qrcodes/batch").map((r) => key(r.method, r.path)),
      ["POST /qrcodes/batch", "PATCH /qrcodes/batch"],
    );
    assert.deepEqual(
      routesFor("/dynqrcodes/export").map((r) => key(r.method, r.path)),
      ["GET /dynqrcodes/export"],
    );
    // "images.zip" is not taken for a qr_id or a code.
    assert.deepEqual(
      routesFor("/qrcodes/images.zip").map((r) => key(r.method, r.path)),
      ["GET /qrcodes/images.zip"],
    );
    assert.deepEqual(
      routesFor("/dynqrcodes/images.zip").map((r) => key(r.method, r.path)),
      ["GET /dynqrcodes/images.zip"],
    );
    assert.deepEqual(
      routesFor("/dynqrcodes/abcdefgh")
        .map((r) => key(r.method, r.path))
        .sort(),
      ["DELETE /dynqrcodes/{code}", "GET /dynqrcodes/{code}", "PATCH /dynqrcodes/{code}"],
    );
    assert.deepEqual(routesFor("/nothing/here"), []);
  });

  it("a back-half may not be a literal segment under /dynqrcodes/: the reserved words are the table's", () => {
    const segments = V1_ROUTES.flatMap((route) => {
      const segment = /^\/dynqrcodes\/([^/{]+)(?:\/|$)/.exec(route.path)?.[1];
      return segment ? [segment] : [];
    });
    assert.deepEqual([...RESERVED_BACK_HALVES].sort(), [...new Set(segments)].sort());
  });

  it("the raw routes are documented from the domain's constants", () => {
    const doc = openApiDocument();
    const image = (
      doc.paths?.["/qrcodes/{qr_id}/image"] as {
        get: { parameters: { name: string; schema: { minimum?: number; maximum?: number } }[] };
      }
    ).get;
    assert.deepEqual(
      image.parameters.filter((p) => p.name === "size").map((p) => [p.schema.minimum, p.schema.maximum]),
      [[64, 2048]],
    );
    const csv = (
      doc.paths?.["/dynqrcodes/{code}/analytics/export"] as {
        get: { responses: Record<string, { description: string }> };
      }
    ).get;
    assert.equal(
      csv.responses["200"].description,
      "CSV, columns scanned_at,scanned_at_local,country,device,os,browser,unique,destination",
    );
  });

  it("says what the server does: 201 for creates, a relative server, ids, descriptions and declared tags, only schemas it sends", () => {
    const doc = openApiDocument();
    assert.deepEqual(doc.servers, [{ url: "/v1" }]);
    const tags = new Set((doc.tags ?? []).map((t) => t.name));
    const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(
        item as Record<
          string,
          { operationId?: string; description?: string; tags?: string[]; responses: Record<string, unknown> }
        >,
      ).map(([method, op]) => ({ route: key(method, path), op })),
    );
    for (const { route, op } of operations) {
      assert.ok(op.operationId && op.description, route);
      assert.ok(op.tags?.length && op.tags.every((t) => tags.has(t)), route);
    }
    const ids = operations.map((o) => o.op.operationId);
    assert.equal(new Set(ids).size, ids.length, "operationIds are unique");
    const created = operations
      .filter((o) => "201" in o.op.responses)
      .map((o) => o.route)
      .sort();
    assert.deepEqual(created, [
      "POST /domains",
      "POST /dynqrcodes",
      "POST /dynqrcodes/batch",
      "POST /qrcodes",
      "POST /qrcodes/batch",
      "POST /style-presets",
      "POST /webhooks",
    ]);
    const accepted = operations.filter((o) => "202" in o.op.responses).map((o) => o.route);
    assert.deepEqual(accepted, [
      "PATCH /dynqrcodes/{code}",
      "POST /webhooks/{webhook_id}/test",
      "POST /webhooks/{webhook_id}/deliveries/{delivery_id}/retry",
    ]);
    // A writer's change held for review is 202; every other PATCH answer stays 200.
    const patch = operations.find((o) => o.route === "PATCH /dynqrcodes/{code}")!.op.responses as Record<
      string,
      { description: string }
    >;
    assert.ok("200" in patch);
    assert.match(patch["202"].description, /Held for review/);
    for (const { op } of operations.filter((o) => "201" in o.op.responses)) assert.equal("200" in op.responses, false);
    assert.deepEqual(
      Object.keys(doc.components?.schemas ?? {}).filter((name) => name.startsWith("error.")),
      [],
    );
  });
});
