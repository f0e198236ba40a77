// Server defects a new user met (issue "The first hour of a new user", part 3): each answered
// in the contract's words, and nothing stored that an image route cannot draw.
import assert from "node:assert/strict";
import { request } from "node:http";
import { describe, it } from "node:test";
import { MAX_BYTES } from "../../server/images/qrImage";
import { BASE_URL, http, logIn, personalKey, TEST_PASSWORD } from "../helpers";

const longUrl = (bytes: number) => `https://example.com/${"a".repeat(bytes - "https://example.com/".length)}`;

describe("records an image can always draw", () => {
  it("a URL too long for its error-correction level is refused at create, per item in a batch", async () => {
    const { key } = await personalKey();
    const tooLong = await http("POST", "/v1/qrcodes", {
      key,
      json: { url: longUrl(1300), name: "long", style: { error_correction: "H" } },
    });
    assert.equal(tooLong.status, 400);
    assert.deepEqual(tooLong.body, {
      error: `url is too long for a QR code at error correction H: at most ${MAX_BYTES.H} bytes (UTF-8)`,
    });
    const batch = await http("POST", "/v1/qrcodes/batch", {
      key,
      json: {
        qrcodes: [
          { url: "https://example.com/ok", name: "ok" },
          { url: longUrl(1700), name: "q", style: { error_correction: "Q" } },
        ],
      },
    });
    assert.equal(batch.status, 400);
    assert.deepEqual(batch.body, {
      errors: [
        {
          index: 1,
          error: `url is too long for a QR code at error correction Q: at most ${MAX_BYTES.Q} bytes (UTF-8)`,
        },
      ],
    });
    assert.deepEqual(
      (await http("GET", "/v1/qrcodes", { key })).body,
      { qrcodes: [], next_cursor: null },
      "nothing created",
    );
  });

  it("the same URL at a level that holds it is created, and both image formats draw it", async () => {
    const { key } = await personalKey();
    const created = await http("POST", "/v1/qrcodes", { key, json: { url: longUrl(1300), name: "long at M" } });
    assert.equal(created.status, 201);
    const id = (created.body as { created: { qr_id: string }[] }).created[0].qr_id;
    for (const format of ["png", "svg"])
      assert.equal((await http("GET", `/v1/qrcodes/${id}/image?format=${format}&size=2048`, { key })).status, 200);
  });

  it("colours too close to scan are refused by the API as by the web editor", async () => {
    const { key } = await personalKey();
    const r = await http("POST", "/v1/dynqrcodes", {
      key,
      json: {
        destination_url: "https://example.com",
        name: "x",
        style: { foreground: "#777777", background: "#888888" },
      },
    });
    assert.equal(r.status, 400);
    assert.equal(
      (r.body as { error: string }).error,
      "style makes the code unreadable: contrast between colors is too low",
    );
  });
});

/** JSON sent to this server with the given headers (another Host: the address a caller reached it on). */
function sendJson(method: string, path: string, headers: Record<string, string>, json: unknown) {
  const bytes = Buffer.from(JSON.stringify(json));
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request(
      `${BASE_URL}${path}`,
      { method, headers: { ...headers, "content-type": "application/json", "content-length": bytes.length } },
      (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(body) }));
      },
    );
    req.on("error", reject);
    req.end(bytes);
  });
}
const postWithHost = (path: string, host: string, key: string, json: unknown) =>
  sendJson("POST", path, { host, "x-api-key": key }, json);

describe("the redirect-loop guard", () => {
  const port = new URL(BASE_URL).port;
  const host = `qr.internal.example:${port}`;
  const loop = "must not point to this service's own /q/ short links";

  it("refuses this service's own /q/ on the host the request reached, not only on APP_URL", async () => {
    const { key } = await personalKey();
    for (const destination of [`http://${host}/q/abcdefgh`, `https://QR.internal.example:${port}/q/abcdefgh?x=1`]) {
      const r = await postWithHost("/v1/dynqrcodes", host, key, { destination_url: destination, name: "loop" });
      assert.deepEqual([r.status, r.body], [400, { error: `destination_url ${loop}` }], destination);
    }
    const batch = await postWithHost("/v1/qrcodes/batch", host, key, {
      qrcodes: [
        { url: "https://example.com", name: "ok" },
        { url: `http://${host}/q/abcdefgh`, name: "loop" },
      ],
    });
    assert.deepEqual([batch.status, batch.body], [400, { errors: [{ index: 1, error: `url ${loop}` }] }]);
    // Another path on that host, and /q/ on a host the request did not reach, are fine.
    assert.equal(
      (await postWithHost("/v1/dynqrcodes", host, key, { destination_url: `http://${host}/menu`, name: "page" }))
        .status,
      201,
    );
    assert.equal(
      (
        await postWithHost("/v1/dynqrcodes", host, key, {
          destination_url: "https://other.example/q/abcdefgh",
          name: "other",
        })
      ).status,
      201,
    );
  });

  it("the same for the rules' destinations, in a PATCH and in a batch, and through X-Forwarded-Host", async () => {
    const { key } = await personalKey();
    const created = await postWithHost("/v1/dynqrcodes", host, key, {
      destination_url: "https://example.com/menu",
      name: "menu",
    });
    const code = (created.body as { created: { code: string }[] }).created[0].code;
    const patch = (json: unknown, headers: Record<string, string> = { host }) =>
      sendJson("PATCH", `/v1/dynqrcodes/${code}`, { ...headers, "x-api-key": key }, json);
    assert.deepEqual(await patch({ destination_url: `http://${host}/q/abcdefgh` }), {
      status: 400,
      body: { error: `destination_url ${loop}` },
    });
    assert.deepEqual(
      await patch({
        targets: [
          { url: "https://example.com/ios", os: "iOS" },
          { url: `http://${host}/q/x`, os: "Android" },
        ],
      }),
      { status: 400, body: { error: `targets[1].url ${loop}` } },
    );
    assert.deepEqual(
      await patch({ expired_url: "https://proxy.example/q/abcdefgh" }, { "x-forwarded-host": "proxy.example" }),
      { status: 400, body: { error: `expired_url ${loop}` } },
    );
    const batch = await postWithHost("/v1/dynqrcodes/batch", host, key, {
      dynqrcodes: [
        { destination_url: "https://example.com", name: "ok" },
        { destination_url: "https://example.com", name: "rule", targets: [{ url: `http://${host}/q/x`, os: "iOS" }] },
      ],
    });
    assert.deepEqual(batch, { status: 400, body: { errors: [{ index: 1, error: `targets[0].url ${loop}` }] } });
    const unchanged = await patch({ name: "still the menu" });
    assert.equal(unchanged.status, 200);
    assert.deepEqual(
      [
        (unchanged.body as { destination_url: string }).destination_url,
        (unchanged.body as { targets: unknown }).targets,
        (unchanged.body as { expired_url: unknown }).expired_url,
      ],
      ["https://example.com/menu", null, null],
      "nothing refused was stored",
    );
  });

  it("the web pages refuse it too: a form, pasted lines, and a CSV import's check", async () => {
    const { user } = await personalKey();
    const page = await logIn(user.email, TEST_PASSWORD);
    // The pages' calls as a browser that reached the service on `host` sends them (same origin).
    const call = (procedure: string, input: unknown) =>
      sendJson("POST", `/api/trpc/${procedure}`, { host, origin: `http://${host}`, cookie: page.cookie() }, input);
    const message = (r: { body: unknown }) => (r.body as { error: { message: string } }).error?.message;
    const form = await call("library.create", {
      scope: "personal",
      kind: "dynamic",
      name: "loop",
      url: `http://${host}/q/abcdefgh`,
    });
    assert.equal(form.status, 400);
    assert.match(message(form), /must not point to this service's own \/q\/ short links/);
    // Every bad line at once: the loop with the schemas' own problems.
    const lines = await call("library.createMany", {
      scope: "personal",
      kind: "static",
      lines: `ok, https://example.com\nloop, http://${host}/q/abcdefgh\nbad, ftp://example.com`,
    });
    assert.equal(lines.status, 400);
    assert.match(
      message(lines),
      /^Line 2: .*must not point to this service's own \/q\/ short links\nLine 3: .*must be an absolute http or https URL$/,
    );
    const check = await call("libraryImport.check", {
      scope: "personal",
      kind: "dynamic",
      rows: [
        { line: 2, name: "ok", url: "https://example.com" },
        { line: 3, name: "loop", url: `http://${host}/q/abcdefgh` },
      ],
    });
    assert.equal(check.status, 200);
    const problems = (check.body as { result: { data: { problems: { line: number; error: string }[] } } }).result.data
      .problems;
    assert.deepEqual(
      problems.map((p) => p.line),
      [3],
    );
    assert.match(problems[0].error, /must not point to this service's own \/q\/ short links/);
    assert.deepEqual(
      await page.query("library.page", { scope: "personal" }).then((p) => (p as { items: unknown[] }).items),
      [],
      "nothing created",
    );
  });
});

describe("input in the contract's words", () => {
  it("paging numbers are decimal digits only", async () => {
    const { key } = await personalKey();
    for (const limit of ["0x10", "1e1", " 5", "5.0"]) {
      const r = await http("GET", `/v1/qrcodes?limit=${encodeURIComponent(limit)}`, { key });
      assert.deepEqual([r.status, r.body], [400, { error: "limit must be an integer from 1 to 100" }], limit);
    }
    assert.equal((await http("GET", "/v1/qrcodes?limit=10", { key })).status, 200);
  });

  it("a repeated query parameter is named", async () => {
    const { key } = await personalKey();
    const r = await http("GET", "/v1/qrcodes?limit=5&limit=6", { key });
    assert.deepEqual([r.status, r.body], [400, { error: "limit must be given once" }]);
    const image = await http("GET", "/v1/qrcodes/qr_x/image?format=svg&format=png", { key });
    assert.deepEqual([image.status, image.body], [400, { error: "format must be given once" }]);
  });

  it("a PATCH body naming the path's code is an unknown field, and changes nothing", async () => {
    const { key } = await personalKey();
    const made = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: "https://example.com/a", name: "before" },
    });
    const code = (made.body as { created: { code: string }[] }).created[0].code;
    const r = await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { name: "after", code: "zzzzzzzz" } });
    assert.deepEqual([r.status, r.body], [400, { error: "Unknown field: code" }]);
    const listed = (await http("GET", "/v1/dynqrcodes", { key })).body as { dynqrcodes: { name: string }[] };
    assert.equal(listed.dynqrcodes[0].name, "before");
  });

  it("names count characters, not UTF-16 units, and refuse control characters", async () => {
    const { key } = await personalKey();
    const create = (name: string) => http("POST", "/v1/qrcodes", { key, json: { url: "https://example.com", name } });
    assert.equal((await create("😀".repeat(200))).status, 201);
    assert.deepEqual((await create("😀".repeat(201))).body, {
      error: "name must be 1 to 200 characters (after trimming)",
    });
    for (const name of ["a\u0000b", "line\nbreak", "tab\there"]) {
      assert.deepEqual(
        (await create(name)).body,
        { error: "name must not contain control characters (line breaks, tabs, NUL)" },
        JSON.stringify(name),
      );
    }
  });

  it("a body that is not valid UTF-8 is refused, not stored with replacement characters", async () => {
    const { key } = await personalKey();
    const bytes = Buffer.concat([
      Buffer.from('{"url":"https://example.com","name":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}'),
    ]);
    const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${BASE_URL}/v1/qrcodes`,
        {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json", "content-length": bytes.length },
        },
        (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on("error", reject);
      req.end(bytes);
    });
    assert.deepEqual([r.status, JSON.parse(r.body)], [400, { error: "The body is not valid UTF-8" }]);
  });

  it("a path id holding a control character names no record: 404, never a database error", async () => {
    const { key } = await personalKey();
    // PostgreSQL refuses a NUL in text: this was a 500 there (found by the fuzz suite).
    for (const [method, path] of [
      ["DELETE", "/v1/qrcodes/%00"],
      ["GET", "/v1/qrcodes/a%00b/image"],
      ["PATCH", "/v1/dynqrcodes/%0A"],
    ] as const) {
      const r = await http(method, path, { key, json: method === "PATCH" ? { name: "x" } : undefined });
      assert.deepEqual([r.status, r.body], [404, { error: "Not found" }], `${method} ${path}`);
    }
  });

  it("HEAD is answered wherever GET is, without a body", async () => {
    const { key } = await personalKey();
    const head = await http("HEAD", "/v1/qrcodes", { key });
    assert.deepEqual([head.status, head.text], [200, ""]);
    assert.equal((await http("HEAD", "/v1/qrcodes/export", { key })).status, 200);
    assert.equal((await http("HEAD", "/v1/qrcodes/batch", { key })).status, 405);
  });
});

describe("a body refused before it is read", () => {
  it("is answered at once, not after a drain timeout", async () => {
    const big = "x".repeat(2 * 1024 * 1024);
    for (const [headers, status] of [
      [{ "content-type": "application/json" }, 401],
      [{ "content-type": "text/plain", "x-api-key": (await personalKey()).key }, 415],
    ] as const) {
      const started = Date.now();
      const r = await fetch(`${BASE_URL}/v1/qrcodes`, { method: "POST", headers, body: big });
      await r.arrayBuffer();
      const ms = Date.now() - started;
      assert.equal(r.status, status);
      assert.ok(ms < 1500, `answered after ${ms} ms`);
    }
  });
});
