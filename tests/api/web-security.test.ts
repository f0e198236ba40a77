// The pages' security headers and session cookies: a CSP with a fresh nonce per answer that
// the page's own scripts carry (the browser specs check that nothing is refused), no
// framing, no sniffing; cookies HttpOnly and SameSite=Lax, and Secure behind https.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/harness";
import { BASE_URL, logIn, makeUser, TEST_PASSWORD } from "../helpers";

const cookieNamed = (lines: string[], name: string) => lines.find((line) => line.split("=")[0].endsWith(name));

describe("web security", () => {
  it("every page answers with the security headers, and its scripts carry the policy's nonce", async () => {
    const nonces = new Set<string>();
    const pages = ["/", "/login", "/signup", "/docs", "/library", "/business", "/analytics", "/profile", "/forgot-password", "/reset-password?token=x", "/verify-email?token=x", "/confirm-email?token=x"];
    for (const path of pages) {
      const res = await fetch(BASE_URL + path, { redirect: "manual" });
      assert.ok(res.status === 200 || res.status === 307, `${path}: ${res.status}`);
      const csp = res.headers.get("content-security-policy") ?? "";
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'(;|$)/.exec(csp)?.[1];
      assert.ok(nonce, `${path}: ${csp}`);
      nonces.add(nonce);
      for (const directive of ["default-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"]) {
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
      fetch(`${BASE_URL}/api/trpc/keys.generatePersonal`, { method: "POST", headers: { "content-type": "application/json", cookie: page.cookie(), ...headers } });
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
    assert.ok(!noToken.headers.getSetCookie().some((c) => c.includes("session-token=")), "a log-in without the CSRF token sets no session");
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
      assert.ok(csrf.some((line) => line.startsWith("__Host-next-auth.csrf-token=") && /; Secure/i.test(line)), csrf.join("\n"));
    });
  });
});
