// An instance started with SERVE_PAGES=0 (README, "Instances that serve only /v1 and /q"): the
// API and the short links answer as on any instance, from the same database; the pages and
// their tRPC endpoint are not served (the balancer sends them to the other instances), and
// Next is never started.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/harness";
import { personalKey } from "../helpers";

describe("an instance for /v1 and /q only", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ SERVE_PAGES: "0" });
  });
  after(() => server.stop());

  it("answers /v1, /q and the probes, and refuses the pages in the contract's format", async () => {
    assert.equal((await fetch(`${server.base}/readyz`)).status, 200);
    const { key } = await personalKey();
    const created = await fetch(`${server.base}/v1/dynqrcodes`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ destination_url: "https://example.com/api-only", name: "api only" }),
    });
    assert.equal(created.status, 201);
    const { code } = ((await created.json()) as { created: { code: string }[] }).created[0];
    const scan = await fetch(`${server.base}/q/${code}`, { redirect: "manual" });
    assert.deepEqual([scan.status, scan.headers.get("location")], [302, "https://example.com/api-only"]);

    for (const [method, path] of [
      ["GET", "/login"],
      ["GET", "/"],
      ["GET", "/library"],
      ["POST", "/api/trpc/account.signup"],
      ["GET", "/_next/static/chunks/main.js"],
    ]) {
      const r = await fetch(`${server.base}${path}`, { method, redirect: "manual" });
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.headers.get("content-type"), "application/json; charset=utf-8", `${method} ${path}`);
      assert.match(r.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/, `${method} ${path}`);
      assert.deepEqual(
        await r.json(),
        { error: "Not found: this instance serves only /v1 and /q (SERVE_PAGES=0)" },
        `${method} ${path}`,
      );
    }
  });

  it("the setting is checked when the server starts", async () => {
    await assert.rejects(startServer({ SERVE_PAGES: "sometimes" }), /SERVE_PAGES must be 1, true, 0 or false/);
  });
});
