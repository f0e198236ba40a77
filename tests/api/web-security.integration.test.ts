// The pages' security headers and session cookies: a CSP with a fresh nonce per answer that
// the page's own scripts carry (the browser specs check that nothing is refused), no
// framing, no sniffing, on the short link's pages and /v1 too (answered before Next); cookies
// HttpOnly and SameSite=Lax, and Secure behind https.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/harness";
import { BASE_URL, http, logIn, makeUser, personalKey, TEST_PASSWORD } from "../helpers";

const cookieNamed = (lines: string[], name: string) => lines.find((line) => line.split("=")[0].endsWith(name));
const SAME_ON_EVERY_ANSWER = ["x-content-type-options", "referrer-policy", "x-frame-options", "permissions-policy"];

describe("web security", () => {
  it("every page answers with the security headers, and its scripts carry the policy's nonce", async () => {
    const nonces = new Set<string>();
    const pages = [
      "/",
      "/login",
      "/signup",
      "/docs",
      "/library",
      "/business",
      "/analytics",
      "/profile",
      "/forgot-password",
      "/reset-password?token=x",
      "/verify-email?token=x",
      "/confirm-email?token=x",
    ];
    for (const path of pages) {
      const res = await fetch(BASE_URL + path, { redirect: "manual" });
      assert.ok(res.status === 200 || res.status === 307, `${path}: ${res.status}`);
      const csp = res.headers.get("content-security-policy") ?? "";
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'(;|$)/.exec(csp)?.[1];
      assert.ok(nonce, `${path}: ${csp}`);
      nonces.add(nonce);
      for (const directive of [
        "default-src 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ]) {
        assert.ok(csp.includes(directive), `${path}: ${directive} missing from ${csp}`);
      }
      assert.ok(!/script-src[^;]*'unsafe-(inline|eval)'/.test(csp), `${path}: ${csp}`);
      assert.equal(res.headers.get("x-content-type-options"), "nosniff", path);
      assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin", path);
      assert.equal(res.headers.get("x-frame-options"), "DENY", path);
      if (res.status === 200) {
        const html = await res.text();
        const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
        assert.ok(scripts.length > 0, path);
        for (const tag of scripts) assert.ok(tag.includes(`nonce="${nonce}"`), `${path}: ${tag}`);
      }
    }
    assert.equal(nonces.size, pages.length, "a fresh nonce for every answer");
  });

  it("the short link's pages and /v1's answers carry the pages' security headers; the pages' policy forbids every script", async () => {
    const page = await fetch(`${BASE_URL}/login`);
    const expected = SAME_ON_EVERY_ANSWER.map((name) => page.headers.get(name));
    assert.deepEqual(expected.slice(0, 3), ["nosniff", "strict-origin-when-cross-origin", "DENY"]);
    const { key } = await personalKey();
    const create = async (rules: object) => {
      const r = await http("POST", "/v1/dynqrcodes", {
        key,
        json: { destination_url: "https://example.com/", name: "Headers", ...rules },
      });
      assert.equal(r.status, 201, r.text);
      return (r.body as { created: { code: string }[] }).created[0].code;
    };
    const [gone, expired, locked] = [
      await create({}),
      await create({ expires_at: Math.floor(Date.now() / 1000) + 60 }),
      await create({ password: "open sesame" }),
    ];
    assert.equal((await http("DELETE", `/v1/dynqrcodes/${gone}`, { key })).status, 200);
    assert.equal(
      (
        await http("PATCH", `/v1/dynqrcodes/${expired}`, {
          key,
          json: { expires_at: Math.floor(Date.now() / 1000) - 1 },
        })
      ).status,
      200,
    );
    const form = (password: string) => ({
      body: new URLSearchParams({ password }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    const answers: { what: string; status: number; res: { status: number; headers: Headers } }[] = [];
    const answer = async (what: string, status: number, reply: Promise<{ status: number; headers: Headers }>) =>
      answers.push({ what, status, res: await reply });
    await answer("unknown code", 404, http("GET", "/q/zzzzzzzz"));
    await answer("deleted code", 410, http("GET", `/q/${gone}`));
    await answer("expired code", 410, http("GET", `/q/${expired}`));
    await answer("password form", 200, http("GET", `/q/${locked}`));
    await answer("password form (HEAD)", 200, http("HEAD", `/q/${locked}`));
    await answer("form too large", 413, http("POST", `/q/${locked}`, form("x".repeat(5000))));
    for (let i = 1; i <= 10; i++)
      await answer(`wrong password ${i}`, 401, http("POST", `/q/${locked}`, form(`guess ${i}`)));
    await answer("too many tries", 429, http("POST", `/q/${locked}`, form("guess 11")));
    for (const { what, res } of answers) assert.match(res.headers.get("content-type") ?? "", /^text\/html/, what);
    await answer("/v1 list", 200, http("GET", "/v1/dynqrcodes", { key }));
    await answer("/v1 without a key", 401, http("GET", "/v1/dynqrcodes"));
    await answer("/v1 unknown path", 404, http("GET", "/v1/nothing-here", { key }));
    for (const { what, status, res } of answers) {
      assert.equal(res.status, status, what);
      assert.deepEqual(
        SAME_ON_EVERY_ANSWER.map((name) => res.headers.get(name)),
        expected,
        what,
      );
      const csp = res.headers.get("content-security-policy") ?? "";
      for (const directive of ["default-src 'none'", "frame-ancestors 'none'", "form-action 'self'", "base-uri 'none'"])
        assert.ok(csp.includes(directive), `${what}: ${directive} missing from ${csp}`);
      assert.ok(!csp.includes("script-src"), `${what}: no script may run: ${csp}`);
    }
  });

  it("the session cookie is HttpOnly and SameSite=Lax, without Secure over plain http", async () => {
    const user = await makeUser("free");
    const page = await logIn(user.email, TEST_PASSWORD);
    const session = cookieNamed(page.setCookies, "next-auth.session-token");
    assert.ok(session, page.setCookies.join("\n"));
    assert.match(session, /; HttpOnly/i);
    assert.match(session, /; SameSite=Lax/i);
    assert.doesNotMatch(session, /; Secure/i);
  });

  it("page actions are refused from another origin or without one (CSRF), and change nothing", async () => {
    const user = await makeUser("pro");
    const page = await logIn(user.email, TEST_PASSWORD);
    const action = (headers: Record<string, string>) =>
      fetch(`${BASE_URL}/api/trpc/keys.generatePersonal`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: page.cookie(), ...headers },
      });
    for (const headers of [{ origin: "https://evil.example" }, {}, { origin: "null" }] as Record<string, string>[]) {
      const refused = await action(headers);
      assert.equal(refused.status, 403, JSON.stringify(headers));
      assert.deepEqual(await refused.json(), { error: { message: "Cross-site request refused" } });
    }
    assert.equal(((await page.query("keys.personal")) as { key: unknown }).key, null, "no key was made");
    const allowed = await action({ origin: BASE_URL });
    assert.equal(allowed.status, 200);
    // next-auth's own form posts carry its double-submit token: without it, no log-in.
    const noToken = await fetch(`${BASE_URL}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: user.email, password: TEST_PASSWORD, json: "true" }),
    });
    assert.ok(
      !noToken.headers.getSetCookie().some((c) => c.includes("session-token=")),
      "a log-in without the CSRF token sets no session",
    );
  });

  describe("behind https", () => {
    let server: RunningServer;
    before(async () => {
      server = await startServer({ APP_URL: "https://qr.test.example", NEXTAUTH_URL: "https://qr.test.example" });
    });
    after(() => server.stop());

    it("cookies are Secure and carry the __Secure-/__Host- names", async () => {
      const user = await makeUser("free");
      const page = await logIn(user.email, TEST_PASSWORD, server.base);
      const session = cookieNamed(page.setCookies, "next-auth.session-token") ?? "";
      assert.ok(session.startsWith("__Secure-next-auth.session-token="), page.setCookies.join("\n"));
      assert.match(session, /; Secure/i);
      assert.match(session, /; HttpOnly/i);
      assert.match(session, /; SameSite=Lax/i);
      const csrf = (await fetch(`${server.base}/api/auth/csrf`)).headers.getSetCookie();
      assert.ok(
        csrf.some((line) => line.startsWith("__Host-next-auth.csrf-token=") && /; Secure/i.test(line)),
        csrf.join("\n"),
      );
    });
  });
});
