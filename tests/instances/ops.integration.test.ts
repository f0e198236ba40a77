// /healthz, /readyz, /metrics (contract: "Operations") on servers of the test's own, on the
// main server's database: statuses and bodies, METRICS_TOKEN, loopback only without it (a
// forwarded address does not pass for loopback under TRUST_PROXY), the metric names and labels
// after a /v1 call, a redirect and a 429, nothing private in the metrics text; and the drain:
// /readyz 503 `draining` right after SIGTERM while the instance still serves, then exit 0.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/harness";
import { personalKey } from "../helpers";
import { UA } from "../agents";

const TOKEN = "metrics-token-for-the-tests-0123456789";
const IPHONE = UA.iphone;

/** The sample lines of one metric whose labels include all of `labels`. */
function samples(text: string, name: string, labels: Record<string, string> = {}): number[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
    .map((line) => Number(line.slice(line.lastIndexOf(" ") + 1)));
}

describe("health, readiness and metrics", () => {
  let open: RunningServer;
  let guarded: RunningServer;
  before(async () => {
    // TRUST_PROXY, as behind nginx; a tiny invalid-key burst so that a 429 is quick to get.
    [open, guarded] = await Promise.all([
      startServer({ TRUST_PROXY: "1", INVALID_KEY_LIMIT_BURST: "2", REDIS_URL: "" }),
      startServer({ METRICS_TOKEN: TOKEN }),
    ]);
  });
  after(async () => {
    await Promise.all([open?.stop(), guarded?.stop()]);
  });

  it("/healthz and /readyz answer as the contract says", async () => {
    const health = await fetch(`${open.base}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: "ok" });
    const ready = await fetch(`${open.base}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), {
      status: "ready",
      checks: { database: "ok", redis: "not configured", spool: "ok" },
      scans_behind: { scans: 0, seconds: 0 },
    });
    assert.equal((await fetch(`${open.base}/healthz`, { method: "POST" })).status, 405);
  });

  it("/metrics: loopback only without a token, and a forwarded client is not loopback", async () => {
    assert.equal((await fetch(`${open.base}/metrics`)).status, 200);
    // What nginx sends for an outside client that forged the header: its own entry comes last.
    assert.equal(
      (await fetch(`${open.base}/metrics`, { headers: { "x-forwarded-for": "127.0.0.1, 203.0.113.5" } })).status,
      404,
    );
    assert.equal((await fetch(`${open.base}/metrics`, { headers: { "x-forwarded-for": "203.0.113.5" } })).status, 404);
  });

  it("/metrics with METRICS_TOKEN: 401 without it, 200 with it", async () => {
    const without = await fetch(`${guarded.base}/metrics`);
    assert.equal(without.status, 401);
    assert.deepEqual(await without.json(), { error: "Unauthorized" });
    assert.equal(
      (await fetch(`${guarded.base}/metrics`, { headers: { authorization: "Bearer not-the-token-at-all-000000000" } }))
        .status,
      401,
    );
    const ok = await fetch(`${guarded.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get("content-type") ?? "", /^text\/plain/);
  });

  it("counts a /v1 call, a redirect and a 429 under route templates; nothing private in the text", async (t) => {
    const { user, key } = await personalKey();
    const headers = { "x-api-key": key, "content-type": "application/json" };
    const created = await fetch(`${open.base}/v1/dynqrcodes`, {
      method: "POST",
      headers,
      body: JSON.stringify({ destination_url: "https://example.com/m", name: "Metrics" }),
    });
    assert.equal(created.status, 201);
    const { code } = ((await created.json()) as { created: { code: string }[] }).created[0];
    assert.equal(
      (
        await fetch(`${open.base}/v1/dynqrcodes/${code}`, {
          method: "PATCH",
          headers,
          body: JSON.stringify({ name: "Metrics 2" }),
        })
      ).status,
      200,
    );
    for (let i = 0; i < 70; i++)
      assert.equal(
        (
          await fetch(`${open.base}/q/${code}`, {
            redirect: "manual",
            headers: { "user-agent": IPHONE, "x-forwarded-for": "198.51.100.23" },
          })
        ).status,
        302,
      );
    assert.equal(
      (await fetch(`${open.base}/q/${code}`, { redirect: "manual", headers: { "user-agent": "Googlebot/2.1" } }))
        .status,
      302,
    );
    assert.equal((await fetch(`${open.base}/q/nosuchcode1`, { redirect: "manual" })).status, 404);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await fetch(`${open.base}/v1/qrcodes`, { headers: { "x-forwarded-for": "198.51.100.99" } })).status,
      );
    assert.deepEqual(statuses.slice(-1), [429]);

    const text = await (await fetch(`${open.base}/metrics`)).text();
    assert.deepEqual(
      samples(text, "qr_http_requests_total", { route: "/v1/dynqrcodes", method: "POST", status: "201" }),
      [1],
    );
    assert.deepEqual(
      samples(text, "qr_http_requests_total", { route: "/v1/dynqrcodes/{code}", method: "PATCH", status: "200" }),
      [1],
    );
    assert.deepEqual(
      samples(text, "qr_http_requests_total", { route: "/q/{code}", method: "GET", status: "302" }),
      [71],
    );
    assert.deepEqual(samples(text, "qr_http_requests_total", { route: "/v1/qrcodes", method: "GET", status: "429" }), [
      statuses.filter((s) => s === 429).length,
    ]);
    assert.deepEqual(samples(text, "qr_short_link_requests_total", { outcome: "redirect" }), [70]);
    assert.deepEqual(samples(text, "qr_short_link_requests_total", { outcome: "bot" }), [1]);
    assert.deepEqual(samples(text, "qr_short_link_requests_total", { outcome: "not_found" }), [1]);
    assert.ok(samples(text, "qr_rate_limited_total", { scope: "invalid_key" })[0] >= 1);
    assert.ok(samples(text, "qr_api_key_rejections_total", { reason: "missing_key" })[0] >= 2);
    assert.ok(
      samples(text, "qr_http_request_duration_seconds_count", { route: "/v1/dynqrcodes", method: "POST" })[0] === 1,
    );
    // /q pays counters only: one redirect in 64 has its duration observed.
    assert.deepEqual(
      samples(text, "qr_http_request_duration_seconds_count", { route: "/q/{code}", method: "GET" }),
      [1],
    );
    assert.equal(samples(text, "qr_scan_buffer_scans").length, 2, "in memory and in the spool");
    for (const name of [
      "qr_scans_recorded_total",
      "qr_scan_backlog_seconds",
      "qr_scan_write_duration_seconds_count",
      "process_cpu_user_seconds_total",
      "nodejs_eventloop_lag_seconds",
    ])
      assert.equal(samples(text, name).length, 1, name);
    // The scans are written within 200 ms on a quiet machine (a busy one: seconds): counted once they are.
    let later = "";
    for (const end = Date.now() + 15_000; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) {
      later = await (await fetch(`${open.base}/metrics`)).text();
      if (samples(later, "qr_scans_recorded_total")[0] === 70) break;
    }
    assert.deepEqual(samples(later, "qr_scans_recorded_total"), [70]);
    assert.deepEqual(samples(later, "qr_scan_buffer_scans"), [0, 0]);
    assert.deepEqual(samples(later, "qr_scan_backlog_seconds"), [0]);
    for (const secret of [key, code, user.email, "198.51.100.23", "198.51.100.99"])
      assert.ok(!later.includes(secret), `${secret} is in the metrics text`);
    t.diagnostic(
      `metrics text: ${later.length} bytes, ${later.split("\n").filter((l) => l.startsWith("qr_")).length} qr_ samples`,
    );
  });

  it("drains on SIGTERM: /readyz 503 draining at once, still serving, then exits 0", async () => {
    const server = await startServer({ SHUTDOWN_DRAIN_SECONDS: "2", REDIS_URL: "", LOG_LEVEL: "info" });
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 200));
    const ready = await fetch(`${server.base}/readyz`);
    assert.equal(ready.status, 503);
    assert.deepEqual(await ready.json(), {
      status: "not ready",
      checks: { database: "ok", redis: "not configured", spool: "ok", shutdown: "draining" },
      scans_behind: { scans: 0, seconds: 0 },
    });
    assert.equal((await fetch(`${server.base}/healthz`)).status, 200);
    assert.equal((await fetch(`${server.base}/v1/openapi.json`)).status, 200);
    assert.equal(await server.exited, 0);
    assert.ok(Date.now() - signalled >= 2000, "exited before the drain window");
    assert.match(server.output(), /"event":"shutdown.draining"/);
  });
});
