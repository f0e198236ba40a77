// The typed client (clients/typescript) against the running server: the contract's errors as
// typed exceptions, a 429 retried after Retry-After with the same Idempotency-Key, cursor
// iteration over 250 records, and the committed generated types equal to what the generator makes
// of the served document. Every /v1 operation through its typed call: client-operations.integration.test.ts.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { InvalidRequestError, NotFoundError } from "../../clients/typescript/src";
import { renderTypes } from "../../clients/typescript/scripts/render-types";
import { BASE_URL, burst, personalKey } from "../helpers";
import { recordingClient } from "./recording-client";

describe("typed client", () => {
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
