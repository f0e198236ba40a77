// The API's rough edges (issue 39, points 8 to 10): what is not asked for is refused by name,
// the limit that refused is the one described, and answers outside the route table are in the
// contract's format.
import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import { keyRule } from "../../server/rate-limit";
import { BASE_URL, http, personalKey, prepareBurst } from "../helpers";

type RawReply = { status: number; headers: Map<string, string>; body: unknown };

/** One request written byte for byte (repeated headers, unknown methods), read to the connection's close. */
function raw(requestLine: string, headerLines: string[], body = ""): Promise<RawReply> {
  const { hostname, port } = new URL(BASE_URL);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const length = body ? [`Content-Length: ${Buffer.byteLength(body)}`] : [];
      socket.write(
        [requestLine, `Host: ${hostname}:${port}`, "Connection: close", ...headerLines, ...length, "", body].join(
          "\r\n",
        ),
      );
    });
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head, ...rest] = text.split("\r\n\r\n");
      const [status, ...lines] = head.split("\r\n");
      const headers = new Map(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      let payload = rest.join("\r\n\r\n");
      if (headers.get("transfer-encoding") === "chunked")
        payload = payload
          .replace(/^[0-9a-f]+\r\n/, "")
          .replace(/\r\n0\r\n\r\n$/, "")
          .replace(/\r\n$/, "");
      let parsed: unknown;
      try {
        parsed = JSON.parse(payload);
      } catch {
        parsed = payload;
      }
      resolve({ status: Number(status.split(" ")[1]), headers, body: parsed });
    });
  });
}

describe("unknown query parameters", () => {
  it("every route that takes a query refuses a name it does not list, by name; the listed ones pass", async () => {
    const { key } = await personalKey();
    const code = (
      (await http("POST", "/v1/dynqrcodes", { key, json: { destination_url: "https://example.com", name: "d" } }))
        .body as { created: { code: string }[] }
    ).created[0].code;
    const qrId = (
      (await http("POST", "/v1/qrcodes", { key, json: { url: "https://example.com", name: "s" } })).body as {
        created: { qr_id: string }[];
      }
    ).created[0].qr_id;
    const paths = [
      "/v1/qrcodes?limit=5",
      "/v1/dynqrcodes?limit=5",
      "/v1/dynqrcodes?status=paused&search=d&sort=name",
      `/v1/qrcodes/${qrId}`,
      `/v1/dynqrcodes/${code}`,
      "/v1/dynqrcodes/analytics?from=2026-01-01",
      `/v1/dynqrcodes/${code}/analytics?granularity=day`,
      "/v1/qrcodes/export",
      `/v1/dynqrcodes/${code}/analytics/export?tz=UTC`,
      `/v1/qrcodes/${qrId}/image?format=svg`,
      `/v1/dynqrcodes/${code}/image?size=200`,
      "/v1/qrcodes/images.zip?format=svg",
      "/v1/webhooks",
    ];
    for (const path of paths) {
      assert.equal((await http("GET", path, { key })).status, 200, path);
      // `colour` is no route's parameter (`status` is the dynamic list's since issue 42).
      const refused = await http("GET", `${path}${path.includes("?") ? "&" : "?"}colour=red`, { key });
      assert.equal(refused.status, 400, `${path}&colour=red`);
      assert.deepEqual(refused.body, { error: "Unknown query parameter: colour" }, path);
    }
    // A path parameter is not a query parameter.
    assert.deepEqual((await http("GET", `/v1/dynqrcodes/${code}/analytics?code=${code}`, { key })).body, {
      error: "Unknown query parameter: code",
    });
    // A route without a query: a write's query string is refused too, and nothing is created.
    const write = await http("POST", "/v1/qrcodes?dry_run=1", {
      key,
      json: { url: "https://example.com/x", name: "x" },
    });
    assert.deepEqual([write.status, write.body], [400, { error: "Unknown query parameter: dry_run" }]);
    assert.equal(((await http("GET", "/v1/qrcodes", { key })).body as { qrcodes: unknown[] }).qrcodes.length, 1);
  });
});

describe("repeated headers", () => {
  it("two x-api-key headers: 401 asking for one, even when both are the same valid key", async () => {
    const { key } = await personalKey();
    const reply = await raw("GET /v1/qrcodes HTTP/1.1", [`x-api-key: ${key}`, `x-api-key: ${key}`]);
    assert.equal(reply.status, 401);
    assert.deepEqual(reply.body, { error: "Send one x-api-key header, not several" });
    assert.ok(reply.headers.get("x-request-id"));
  });

  it("two Idempotency-Key headers: 400, and nothing is created", async () => {
    const { key } = await personalKey();
    const body = JSON.stringify({ url: "https://example.com/a", name: "a" });
    const reply = await raw(
      "POST /v1/qrcodes HTTP/1.1",
      [`x-api-key: ${key}`, "Content-Type: application/json", "Idempotency-Key: a", "Idempotency-Key: b"],
      body,
    );
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body, { error: "Send one Idempotency-Key header, not several" });
    assert.deepEqual((await http("GET", "/v1/qrcodes", { key })).body, { qrcodes: [], next_cursor: null });
    // One key holding a comma is one key.
    const one = await raw(
      "POST /v1/qrcodes HTTP/1.1",
      [`x-api-key: ${key}`, "Content-Type: application/json", "Idempotency-Key: a, b"],
      body,
    );
    assert.equal(one.status, 201);
  });
});

describe("the limit that refused", () => {
  it("a 429 of the per-second bucket says so in RateLimit; X-RateLimit-* stay the daily quota's", async () => {
    const { key } = await personalKey();
    const rule = keyRule("personal");
    const prepared = await prepareBurst(
      Array.from({ length: 20 }, () => ({ url: `${BASE_URL}/v1/qrcodes`, headers: { "x-api-key": key } })),
    );
    const replies = await prepared.fire();
    const policy = `"burst";q=${rule.capacity};w=${rule.capacity / rule.refillPerSecond}, "daily";q=${rule.dailyQuota};w=86400`;
    const refused = replies.find((r) => r.status === 429)!;
    assert.ok(refused, "the burst was refused in part");
    assert.equal(refused.headers["ratelimit-policy"], policy);
    assert.equal(refused.headers.ratelimit, `"burst";r=0;t=${refused.headers["retry-after"]}`);
    const passed = replies.filter((r) => r.status === 200).length;
    assert.equal(refused.headers["x-ratelimit-limit"], String(rule.dailyQuota));
    assert.equal(refused.headers["x-ratelimit-remaining"], String(rule.dailyQuota - passed));
    // An answer that passed names the limit with fewer left: here the bucket, one token short of full.
    const first = await http("GET", "/v1/qrcodes", { key: (await personalKey()).key });
    assert.equal(first.headers.get("ratelimit-policy"), policy);
    assert.equal(
      first.headers.get("ratelimit"),
      `"burst";r=${rule.capacity - 1};t=${Math.ceil(1 / rule.refillPerSecond)}`,
    );
  });
});

describe("answers outside the route table", () => {
  it("an unknown method: JSON 405 with Allow and X-Request-Id on a route, JSON 400 elsewhere", async () => {
    const onRoute = await raw("FOO /v1/qrcodes HTTP/1.1", []);
    assert.equal(onRoute.status, 405);
    assert.deepEqual(onRoute.body, { error: "Method not allowed: use GET, POST" });
    assert.equal(onRoute.headers.get("allow"), "GET, POST");
    assert.match(onRoute.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
    const elsewhere = await raw("FOO /v1/nothing HTTP/1.1", []);
    assert.equal(elsewhere.status, 400);
    assert.deepEqual(elsewhere.body, { error: "Unknown method" });
    assert.ok(elsewhere.headers.get("x-request-id"));
  });

  it("/V1 and a trailing slash: JSON 404 naming the one canonical path, for every method", async () => {
    const { key } = await personalKey();
    for (const [method, path, canonical] of [
      ["GET", "/V1/qrcodes", "/v1/qrcodes"],
      ["GET", "/v1/qrcodes/", "/v1/qrcodes"],
      ["POST", "/v1/dynqrcodes/", "/v1/dynqrcodes"],
      ["GET", "/V1/openapi.json", "/v1/openapi.json"],
    ]) {
      const reply = await http(method, path, {
        key,
        json: method === "POST" ? { destination_url: "https://example.com", name: "x" } : undefined,
      });
      assert.equal(reply.status, 404, `${method} ${path}`);
      assert.deepEqual(reply.body, { error: `Not found: the path is ${canonical}` });
      assert.match(reply.headers.get("content-type") ?? "", /^application\/json/);
      assert.ok(reply.headers.get("x-request-id"));
    }
    assert.equal(
      ((await http("GET", "/v1/dynqrcodes", { key })).body as { dynqrcodes: unknown[] }).dynqrcodes.length,
      0,
      "the POST to a trailing slash created nothing",
    );
    assert.equal((await http("GET", "/v1/qrcodes", { key })).status, 200);
  });
});
