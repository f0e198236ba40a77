// The typed client (clients/typescript) against the running server: every /v1 operation of the
// served document through its typed calls (and the client's own get, update, updateMany,
// deleteMany, bundle and webhook calls), with an Idempotency-Key on every write. Its errors,
// retries, paging and generated types: client.integration.test.ts.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { NotFoundError } from "../../clients/typescript/src";
import { BASE_URL, personalKey } from "../helpers";
import { unzip } from "../unzip";
import { setTxtRecord } from "../dns-server";
import { recordingClient } from "./recording-client";

const documentOperations = async () => {
  const doc = (await (await fetch(`${BASE_URL}/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({ method: method.toUpperCase(), path })),
  );
};

describe("typed client: every operation", () => {
  it("calls every /v1 operation of the document through its typed call, with an Idempotency-Key on every write", async () => {
    const { key } = await personalKey();
    const { client, sent } = recordingClient(key);
    const { api, unwrap } = client;

    const [one] = (await unwrap(api.POST("/qrcodes", { body: { name: "Menu", url: "https://example.com/menu" } })))
      .created;
    assert.equal(one.name, "Menu");
    const batch = (
      await unwrap(
        api.POST("/qrcodes/batch", {
          body: {
            qrcodes: [
              { name: "A", url: "https://example.com/a" },
              { name: "B", url: "https://example.com/b" },
            ],
          },
        }),
      )
    ).created;
    assert.equal(batch.length, 2);
    // The library out and back in: already there, so nothing is created twice.
    const bundle = await new Response(await client.bundle.export()).text();
    assert.match(bundle, /^\{"type":"bundle","version":1,"exported_at":\d+\}\n\{"type":"static"/);
    const moved = await client.bundle.import(bundle);
    assert.deepEqual(moved.created, { static: 0, dynamic: 0, scans: 0 });
    assert.deepEqual(moved.skipped, { static: 3, dynamic: 0, scans: 0 });
    const listed = await unwrap(api.GET("/qrcodes", { params: { query: { limit: 2 } } }));
    assert.deepEqual([listed.qrcodes.map((q) => q.name), typeof listed.next_cursor], [["B", "A"], "string"]);
    const staticCsv = await unwrap(api.GET("/qrcodes/export", { parseAs: "text" }));
    assert.match(staticCsv, /^qr_id,name,url,created_at,updated_at,metadata,external_id,type,content\r?\n/);
    const svg = await unwrap(
      api.GET("/qrcodes/{qr_id}/image", {
        params: { path: { qr_id: one.qr_id }, query: { format: "svg", size: 128 } },
        parseAs: "text",
      }),
    );
    assert.match(svg, /<svg/);
    const staticZip = await unwrap(
      api.GET("/qrcodes/images.zip", { params: { query: { ids: one.qr_id } }, parseAs: "arrayBuffer" }),
    );
    assert.deepEqual(
      (await unzip(Buffer.from(staticZip))).map((e) => e.name),
      [`${one.qr_id}-menu.svg`],
    );
    // One record read, changed, and changed in bulk: the client's own calls.
    assert.deepEqual(await client.get(one.qr_id), one);
    const renamed = await client.update(one.qr_id, { name: "Menu 2", metadata: { order: "1" }, external_id: "o-1" });
    assert.deepEqual([renamed.name, renamed.metadata, renamed.external_id], ["Menu 2", { order: "1" }, "o-1"]);
    const [bulk] = await client.updateMany.static([{ qr_id: batch[0].qr_id, name: "A2" }]);
    assert.equal(bulk.name, "A2");
    await assert.rejects(client.get("qr_0000000000000000000000"), NotFoundError);
    assert.deepEqual(await unwrap(api.DELETE("/qrcodes/{qr_id}", { params: { path: { qr_id: one.qr_id } } })), {
      qr_id: one.qr_id,
      deleted: true,
    });

    const [dyn] = (
      await unwrap(api.POST("/dynqrcodes", { body: { name: "Poster", destination_url: "https://example.com/poster" } }))
    ).created;
    assert.equal(dyn.status, "active");
    const dynBatch = (
      await unwrap(
        api.POST("/dynqrcodes/batch", {
          body: { dynqrcodes: [{ name: "P1", destination_url: "https://example.com/1" }] },
        }),
      )
    ).created;
    assert.equal(dynBatch[0].name, "P1");
    assert.equal((await unwrap(api.GET("/dynqrcodes", {}))).dynqrcodes.length, 2);
    const updated = await unwrap(
      api.PATCH("/dynqrcodes/{code}", { params: { path: { code: dyn.code } }, body: { name: "Poster 2" } }),
    );
    assert.equal(updated.name, "Poster 2");
    assert.equal((await client.get(dyn.code)).name, "Poster 2");
    const [dynBulk] = await client.updateMany.dynamic([
      { code: dynBatch[0].code, destination_url: "https://example.com/2", external_id: "p-1" },
    ]);
    assert.deepEqual([dynBulk.destination_url, dynBulk.external_id], ["https://example.com/2", "p-1"]);
    assert.match(
      await unwrap(api.GET("/dynqrcodes/export", { parseAs: "text" })),
      /^code,name,short_url,destination_url,status,team_id,created_at,updated_at,total_scans,expires_at,expired_url,targets,utm,password_protected,metadata,external_id,type,content\r?\n/,
    );
    const summary = await unwrap(
      api.GET("/dynqrcodes/analytics", { params: { query: { from: "2026-01-01", to: "2026-01-31" } } }),
    );
    assert.deepEqual([summary.from, summary.to, summary.total_scans], ["2026-01-01", "2026-01-31", 0]);
    const perCode = await unwrap(
      api.GET("/dynqrcodes/{code}/analytics", {
        params: { path: { code: dyn.code }, query: { from: "2026-01-01", to: "2026-01-03" } },
      }),
    );
    assert.deepEqual(
      perCode.daily!.map((d) => d.date),
      ["2026-01-01", "2026-01-02", "2026-01-03"],
    );
    assert.match(
      await unwrap(
        api.GET("/dynqrcodes/{code}/analytics/export", { params: { path: { code: dyn.code } }, parseAs: "text" }),
      ),
      /^scanned_at,country,device,os,browser,unique,destination\r?\n/,
    );
    const png = await unwrap(
      api.GET("/dynqrcodes/{code}/image", {
        params: { path: { code: dyn.code }, query: { format: "png", size: 64 } },
        parseAs: "arrayBuffer",
      }),
    );
    assert.deepEqual([...new Uint8Array(png).slice(1, 4)], [0x50, 0x4e, 0x47]);
    const dynZip = await unwrap(
      api.GET("/dynqrcodes/images.zip", {
        params: { query: { format: "png", size: 64, ids: dyn.code } },
        parseAs: "arrayBuffer",
      }),
    );
    assert.deepEqual(
      (await unzip(Buffer.from(dynZip))).map((e) => e.name),
      [`${dyn.code}-poster-2.png`],
    );
    assert.deepEqual(await unwrap(api.DELETE("/dynqrcodes/{code}", { params: { path: { code: dyn.code } } })), {
      code: dyn.code,
      deleted: true,
    });

    const { webhook } = await unwrap(
      api.POST("/webhooks", { body: { url: "https://93.184.215.14/client-test", events: ["qrcode.created"] } }),
    );
    assert.match(webhook.secret, /^whsec_/);
    assert.equal((await unwrap(api.GET("/webhooks", {}))).webhooks.length, 1);
    assert.equal(
      (
        await unwrap(
          api.PATCH("/webhooks/{webhook_id}", {
            params: { path: { webhook_id: webhook.webhook_id } },
            body: { description: "orders" },
          }),
        )
      ).webhook.description,
      "orders",
    );
    const { event_id } = await unwrap(
      api.POST("/webhooks/{webhook_id}/test", { params: { path: { webhook_id: webhook.webhook_id } } }),
    );
    assert.ok(event_id);
    const { deliveries } = await unwrap(
      api.GET("/webhooks/{webhook_id}/deliveries", { params: { path: { webhook_id: webhook.webhook_id } } }),
    );
    assert.equal(deliveries[0].event_id, event_id);
    const { delivery_id } = await client.webhooks.retry(webhook.webhook_id, deliveries[0].id);
    assert.notEqual(delivery_id, deliveries[0].id);
    const rotated = await client.webhooks.rotateSecret(webhook.webhook_id);
    assert.match(rotated.webhook.secret, /^whsec_/);
    assert.notEqual(rotated.webhook.secret, webhook.secret);
    assert.equal(
      (await unwrap(api.DELETE("/webhooks/{webhook_id}", { params: { path: { webhook_id: webhook.webhook_id } } })))
        .deleted,
      true,
    );

    // A custom domain: added, its TXT record set at the run's DNS server, verified, listed, deleted.
    const name = `client-${randomUUID().slice(0, 8)}.example.com`;
    const added = (await unwrap(api.POST("/domains", { body: { domain: name } }))).domain;
    setTxtRecord(added.verification.name, [added.verification.value]);
    const path = { params: { path: { domain: name } } };
    assert.equal((await unwrap(api.POST("/domains/{domain}/verify", path))).domain.verified, true);
    assert.deepEqual(
      (await unwrap(api.GET("/domains", {}))).domains.map((d) => d.domain),
      [name],
    );
    await unwrap(api.DELETE("/domains/{domain}", path));

    // A style preset: saved, read, listed, restyled, applied to a code, deleted.
    const kit = { params: { path: { name: "Client kit" } } };
    await unwrap(api.POST("/style-presets", { body: { name: "Client kit", style: { module_shape: "dot" } } }));
    assert.deepEqual((await unwrap(api.GET("/style-presets/{name}", kit))).style_preset.style, { module_shape: "dot" });
    assert.deepEqual(
      (await unwrap(api.GET("/style-presets", {}))).style_presets.map((p) => p.name),
      ["Client kit"],
    );
    await unwrap(api.PATCH("/style-presets/{name}", { ...kit, body: { style: { module_shape: "rounded" } } }));
    const [kitCode] = (
      await unwrap(
        api.POST("/qrcodes", { body: { name: "Kit", url: "https://example.com/kit", style_preset: "Client kit" } }),
      )
    ).created;
    assert.deepEqual(kitCode.style, { module_shape: "rounded" });
    await unwrap(api.DELETE("/style-presets/{name}", kit));

    assert.deepEqual(
      await client.deleteMany.qrcodes(batch.map((q) => q.qr_id)),
      batch.map((q) => q.qr_id),
    );
    assert.deepEqual(await client.deleteMany.dynqrcodes([dynBatch[0].code]), [dynBatch[0].code]);

    // Every operation of the served document answered 2xx to one of these calls.
    const template = (path: string) => new RegExp(`^/v1${path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    const ok = sent.filter((s) => s.status < 300);
    for (const op of await documentOperations())
      assert.ok(
        ok.some((s) => s.method === op.method && template(op.path).test(s.path)),
        `${op.method} ${op.path} was called`,
      );
    // The bundle's import is idempotent of itself (a stream is not sent twice): no key.
    const writes = sent.filter((s) => s.method !== "GET" && s.path !== "/v1/bundle");
    assert.ok(
      writes.every((s) => s.idempotencyKey),
      "every write carries an Idempotency-Key",
    );
    // 25 write calls, each with a key of its own (a retry, if the bucket asked for one, reuses its call's).
    const calls = new Map(writes.map((s) => [s.idempotencyKey, `${s.method} ${s.path}`]));
    assert.equal(calls.size, 25);
    assert.ok(writes.every((s) => calls.get(s.idempotencyKey) === `${s.method} ${s.path}`));
  });
});
