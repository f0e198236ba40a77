// The typed client (clients/typescript) against the running server: every /v1 operation of the
// served document through its typed calls, the contract's errors as typed exceptions, a 429
// retried after Retry-After with the same Idempotency-Key, cursor iteration over 250 records,
// and the committed generated types equal to what the generator makes of the served document.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { createClient, InvalidRequestError, NotFoundError, type ClientOptions } from "../../clients/typescript/src";
import { renderTypes } from "../../clients/typescript/scripts/render-types";
import { BASE_URL, burst, personalKey } from "../helpers";
import { unzip } from "../unzip";
import { setTxtRecord } from "../dns-server";

type Sent = { method: string; path: string; status: number; idempotencyKey: string | null; at: number };

/** A client whose every attempt (retries included) is recorded. */
function recordingClient(apiKey: string, options: Partial<ClientOptions> = {}) {
  const sent: Sent[] = [];
  const client = createClient({
    baseUrl: BASE_URL,
    apiKey,
    ...options,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const response = await fetch(request);
      sent.push({
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        idempotencyKey: request.headers.get("idempotency-key"),
        at: Date.now(),
      });
      return response;
    },
  });
  return { client, sent };
}

const documentOperations = async () => {
  const doc = (await (await fetch(`${BASE_URL}/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({ method: method.toUpperCase(), path })),
  );
};

describe("typed client", () => {
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

  it("throws the contract's errors as typed exceptions, a batch's with its per-item errors", async () => {
    const { key } = await personalKey();
    const { client } = recordingClient(key);
    const { api, unwrap } = client;
    await assert.rejects(
      unwrap(api.DELETE("/dynqrcodes/{code}", { params: { path: { code: "nOtThErE" } } })),
      (e: unknown) => {
        assert.ok(e instanceof NotFoundError);
        assert.deepEqual([e.status, e.message, e.errors], [404, "Dynamic QR code not found", []]);
        assert.ok(e.requestId);
        return true;
      },
    );
    const items = [
      { name: "fine", url: "https://example.com" },
      { name: "bad", url: "ftp://example.com" },
      { name: " ", url: "https://example.com" },
    ];
    await assert.rejects(unwrap(api.POST("/qrcodes/batch", { body: { qrcodes: items } })), (e: unknown) => {
      assert.ok(e instanceof InvalidRequestError);
      assert.equal(e.status, 400);
      assert.deepEqual(
        e.errors.map((x) => x.index),
        [1, 2],
      );
      assert.match(e.errors[0].error, /^url must be/);
      return true;
    });
    const { client: wrongKey } = recordingClient("qrp_notarealkeynotarealkeynotarealkey00");
    await assert.rejects(wrongKey.unwrap(wrongKey.api.GET("/qrcodes", {})), {
      name: "AuthenticationError",
      status: 401,
      message: "Invalid API key",
    });
  });

  it("retries a 429 after its Retry-After, with the same Idempotency-Key, and creates once", async () => {
    const { key } = await personalKey();
    const { client, sent } = recordingClient(key);
    // Empty the key's bucket (10 tokens) with requests that arrive together.
    const replies = await burst(
      Array.from({ length: 12 }, () => ({ url: `${BASE_URL}/v1/qrcodes?limit=1`, headers: { "x-api-key": key } })),
    );
    assert.ok(
      replies.some((r) => r.status === 429),
      "the burst emptied the bucket",
    );
    const [created] = (
      await client.unwrap(
        client.api.POST("/qrcodes", { body: { name: "after the wait", url: "https://example.com/wait" } }),
      )
    ).created;
    assert.equal(created.name, "after the wait");
    assert.equal(sent[0].status, 429);
    assert.equal(sent.at(-1)!.status, 201);
    assert.ok(sent.at(-1)!.at - sent[0].at >= 900, "waited the Retry-After (1 s)");
    assert.equal(new Set(sent.map((s) => s.idempotencyKey)).size, 1, "one key for the call and its retries");
    assert.equal((await client.unwrap(client.api.GET("/qrcodes", {}))).qrcodes.length, 1);
  });

  it("gives up after its bounded attempts and throws the 429", async () => {
    const { key } = await personalKey();
    const { client, sent } = recordingClient(key, { retry: { attempts: 1 } });
    await burst(
      Array.from({ length: 12 }, () => ({ url: `${BASE_URL}/v1/qrcodes?limit=1`, headers: { "x-api-key": key } })),
    );
    await assert.rejects(client.unwrap(client.api.GET("/qrcodes", {})), {
      name: "RateLimitError",
      status: 429,
      retryAfter: 1,
      message: "Rate limit exceeded",
    });
    assert.equal(sent.length, 1);
  });

  it("iterates over 250 records, newest first, across pages", async () => {
    const { key } = await personalKey();
    const { client, sent } = recordingClient(key);
    for (let b = 0; b < 5; b++) {
      const qrcodes = Array.from({ length: 50 }, (_, i) => ({
        name: `r${b * 50 + i}`,
        url: `https://example.com/${b * 50 + i}`,
      }));
      await client.unwrap(client.api.POST("/qrcodes/batch", { body: { qrcodes } }));
    }
    const before = sent.length;
    const names: string[] = [];
    for await (const code of client.staticCodes({ pageSize: 100 })) names.push(code.name);
    assert.equal(names.length, 250);
    assert.deepEqual(
      names,
      Array.from({ length: 250 }, (_, i) => `r${249 - i}`),
      "newest first, each once",
    );
    assert.equal(sent.slice(before).filter((s) => s.status === 200).length, 3, "three pages of 100");
  });

  it("searches and iterates with filters across pages; deleteMany is all or nothing", async () => {
    const { key } = await personalKey();
    const { client } = recordingClient(key);
    const dynqrcodes = Array.from({ length: 30 }, (_, i) => ({
      name: i % 3 === 0 ? `École ${i}` : `Shop ${i}`,
      destination_url: `https://example.com/${i}`,
    }));
    const made = (await client.unwrap(client.api.POST("/dynqrcodes/batch", { body: { dynqrcodes } }))).created;
    const found: string[] = [];
    for await (const code of client.search.dynqrcodes("ÉCOLE", { sort: "oldest", pageSize: 3 })) found.push(code.name);
    assert.deepEqual(
      found,
      made.filter((_, i) => i % 3 === 0).map((m) => m.name),
      "every match once, oldest first, across pages of 3",
    );
    for (const code of made.slice(0, 4))
      await client.unwrap(
        client.api.PATCH("/dynqrcodes/{code}", { params: { path: { code: code.code } }, body: { status: "paused" } }),
      );
    const paused: string[] = [];
    for await (const code of client.dynamicCodes({ status: "paused", sort: "name", pageSize: 2 }))
      paused.push(code.name);
    // By the folded name's code points (README): "é" comes after "s".
    assert.deepEqual(paused, ["Shop 1", "Shop 2", "École 0", "École 3"]);

    await assert.rejects(client.deleteMany.dynqrcodes([made[0].code, "nope0000"]), (e: unknown) => {
      assert.ok(e instanceof NotFoundError);
      assert.deepEqual([e.status, e.errors], [404, [{ index: 1, error: "Dynamic QR code not found" }]]);
      return true;
    });
    const left: string[] = [];
    for await (const code of client.dynamicCodes({ pageSize: 100 })) left.push(code.code);
    assert.equal(left.length, 30, "nothing deleted");
    assert.deepEqual(await client.deleteMany.dynqrcodes([made[0].code, made[1].code]), [made[0].code, made[1].code]);
  });

  it("the committed types are what the generator makes of the served document", async () => {
    const served = await (await fetch(`${BASE_URL}/v1/openapi.json`)).json();
    const committed = readFileSync(new URL("../../clients/typescript/src/schema.d.ts", import.meta.url), "utf8");
    assert.ok(
      committed === (await renderTypes(served)),
      "clients/typescript/src/schema.d.ts is stale: run `npm run generate -w clients/typescript`",
    );
  });
});
