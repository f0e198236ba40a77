// The log test of issue 16: a server at LOG_LEVEL=debug with /q access lines, behind a
// (pretend) proxy so that the client's address is one we chose; sign-up, log-in, key
// generation, /v1 with the key and /q; then its whole log is searched for the key, the
// password, the session cookie, the verification link's token and the client address. A session
// ended meanwhile is an answer (the log-in page), not an error line.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/harness";
import { logOutEverywhere } from "../../server/accounts/accounts";
import { setTier } from "../../server/accounts/users";
import { db } from "../../server/platform/db";
import { logIn } from "../helpers";
import { linkIn, waitForMail } from "../mail-sink";

const ADDRESS = "203.0.113.77";

describe("structured logs", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ LOG_LEVEL: "debug", LOG_SHORT_LINKS: "1", TRUST_PROXY: "1", REDIS_URL: "" });
  });
  after(() => server.stop());

  it("one JSON line per request, and none holds a key, a password, a session cookie or the client address", async (t) => {
    const email = `logs-${randomUUID()}@test.example`;
    const password = `never-logged-${randomUUID()}`;
    const signup = await fetch(`${server.base}/api/trpc/account.signup`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.base, "x-forwarded-for": ADDRESS },
      body: JSON.stringify({ email, password, name: "Log Test" }),
    });
    assert.equal(signup.status, 200);
    // Keys need a verified address: the link from the mail, opened as its page does.
    const token = linkIn(await waitForMail(email, /Verify your email address/), "/verify-email").searchParams.get(
      "token",
    )!;
    const verified = await fetch(`${server.base}/api/trpc/account.verifyEmail`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.base, "x-forwarded-for": ADDRESS },
      body: JSON.stringify({ token }),
    });
    assert.equal(verified.status, 200);
    await setTier(email, "pro");
    const page = await logIn(email, password, server.base);
    const session = page
      .cookie()
      .split("; ")
      .find((c) => c.includes("session-token"))!
      .split("=")
      .slice(1)
      .join("=");
    assert.ok(session.length > 20);
    const { key } = (await page("keys.generatePersonal")) as { key: string };
    const headers = { "x-api-key": key, "content-type": "application/json", "x-forwarded-for": ADDRESS };
    const created = await fetch(`${server.base}/v1/dynqrcodes`, {
      method: "POST",
      headers,
      body: JSON.stringify({ destination_url: "https://example.com/logs", name: "Logs" }),
    });
    assert.equal(created.status, 201);
    const { code } = ((await created.json()) as { created: { code: string }[] }).created[0];
    assert.equal((await fetch(`${server.base}/v1/dynqrcodes?limit=5`, { headers })).status, 200);
    assert.equal(
      (await fetch(`${server.base}/v1/qrcodes`, { headers: { "x-api-key": `${key}x`, "x-forwarded-for": ADDRESS } }))
        .status,
      401,
    );
    assert.equal(
      (
        await fetch(`${server.base}/q/${code}`, {
          redirect: "manual",
          headers: { "user-agent": "Mozilla/5.0 (iPhone) Safari/604.1", "x-forwarded-for": ADDRESS },
        })
      ).status,
      302,
    );
    assert.equal((await page.get("/library")).status, 200);
    // The session ended elsewhere ("Log out everywhere"): its cookie's next page and call are
    // answered as logged out, and nothing about it is logged as an error.
    await logOutEverywhere((await db.user.findUniqueOrThrow({ where: { email } })).id);
    const ended = await page.get("/library");
    assert.match(`${ended.status} ${ended.headers.get("location")}`, /^30\d .*\/login/);
    await assert.rejects(page.query("keys.personal"), /Log in first/);
    await new Promise((r) => setTimeout(r, 300));

    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      lines.filter((l) => l.level !== "info" && l.level !== "debug"),
      [],
      "no warning or error",
    );
    const requests = lines.filter((l) => l.event === "request");
    const routes = new Set(requests.map((l) => `${String(l.method)} ${String(l.route)} ${String(l.status)}`));
    t.diagnostic(`${lines.length} log lines, ${requests.length} access lines: ${[...routes].sort().join(", ")}`);
    for (const expected of [
      "POST /v1/dynqrcodes 201",
      "GET /v1/dynqrcodes 200",
      "GET /v1/qrcodes 401",
      "GET /q/{code} 302",
      "GET /library 200",
      "POST /api/*",
    ]) {
      assert.ok(
        [...routes].some((r) => r.startsWith(expected)),
        `no access line for ${expected}`,
      );
    }
    for (const line of requests) {
      assert.equal(typeof line.requestId, "string");
      assert.equal(typeof line.ms, "number");
    }
    const log = server.output();
    for (const [name, value] of [
      ["key", key],
      ["key's tail", key.slice(-12)],
      ["password", password],
      ["session cookie", session],
      ["verification token", token],
      ["client address", ADDRESS],
      ["code in a route", `/q/${code}`],
    ] as const) {
      assert.ok(!log.includes(value), `the log holds the ${name}`);
    }
  });
});
