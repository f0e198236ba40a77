// Custom domains (contract Part 3): /v1/domains, verified through the run's own DNS server
// (tests/dns-server.ts, DNS_SERVERS), and dynamic codes on them. Uniqueness and the in-use count
// are the database's, so this runs on both backends.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { setTxtRecord } from "../dns-server";
import { BASE_URL, http, makeTeam, personalKey } from "../helpers";
import { scansOf } from "../scans";

type DomainRecord = {
  domain: string;
  verified: boolean;
  verification: { type: string; name: string; value: string };
  created_at: number;
};
type Dyn = { code: string; domain: string | null; short_url: string };

/** A domain no other test (or run) has taken. */
const fresh = (stem = "go") => `${stem}-${randomBytes(5).toString("hex")}.example.com`;

async function added(key: string, domain = fresh()): Promise<DomainRecord> {
  const r = await http("POST", "/v1/domains", { key, json: { domain } });
  assert.equal(r.status, 201, r.text);
  return (r.body as { domain: DomainRecord }).domain;
}

/** Added, its TXT record set at the run's DNS server, and verified. */
async function verified(key: string, domain = fresh()): Promise<string> {
  const record = await added(key, domain);
  setTxtRecord(record.verification.name, [record.verification.value]);
  const r = await http("POST", `/v1/domains/${record.domain}/verify`, { key });
  assert.equal(r.status, 200, r.text);
  return record.domain;
}

const dynamic = (key: string, body: object) =>
  http("POST", "/v1/dynqrcodes", {
    key,
    json: { name: "On a domain", destination_url: "https://example.com/d", ...body },
  });

describe("custom domains on /v1", () => {
  it("POST answers 201 with the TXT record to create; GET lists it; the name is stored in one spelling", async () => {
    const { key } = await personalKey();
    const domain = fresh();
    const r = await http("POST", "/v1/domains", { key, json: { domain: ` ${domain.toUpperCase()}. ` } });
    assert.equal(r.status, 201, r.text);
    const record = (r.body as { domain: DomainRecord }).domain;
    assert.deepEqual(Object.keys(record).sort(), ["created_at", "domain", "verification", "verified"]);
    assert.equal(record.domain, domain);
    assert.equal(record.verified, false);
    assert.equal(record.verification.type, "TXT");
    assert.equal(record.verification.name, `_qr-records.${domain}`);
    assert.match(record.verification.value, /^qr-records-verify=[0-9A-Za-z]{32}$/);
    assert.ok(Math.abs(record.created_at - Date.now() / 1000) < 60);
    const list = await http("GET", "/v1/domains", { key });
    assert.equal(list.status, 200);
    assert.deepEqual((list.body as { domains: DomainRecord[] }).domains, [record]);

    const idn = await added(key, `bücher-${randomBytes(3).toString("hex")}.example`);
    assert.match(idn.domain, /^xn--bcher-.*\.example$/);
  });

  it("refuses what is no domain with 400, changing nothing", async () => {
    const { key } = await personalKey();
    const own = new URL(BASE_URL).hostname;
    for (const domain of [
      "",
      "localhost",
      "203.0.113.7",
      "[::1]",
      "https://go.example.com",
      "go.example.com/path",
      "go.example.com:8443",
      "-go.example.com",
      "go..example.com",
      "example.123",
      `${"a".repeat(64)}.example.com`,
      `${"abcdefghi.".repeat(26)}com`,
      "x".repeat(900_000),
      own,
    ]) {
      const r = await http("POST", "/v1/domains", { key, json: { domain } });
      assert.equal(r.status, 400, `${domain.slice(0, 80)}: ${r.text.slice(0, 200)}`);
      assert.match((r.body as { error: string }).error, /^domain /);
    }
    for (const json of [{}, { domain: 7 }, { domain: "go.example.com", extra: 1 }]) {
      const r = await http("POST", "/v1/domains", { key, json });
      assert.equal(r.status, 400, JSON.stringify(json));
    }
    assert.deepEqual((await http("GET", "/v1/domains", { key })).body, { domains: [] });
  });

  it("a domain belongs to one library across the service: added again, by anyone, 409", async () => {
    const first = await personalKey();
    const second = await personalKey();
    const { domain } = await added(first.key);
    for (const key of [first.key, second.key]) {
      const r = await http("POST", "/v1/domains", { key, json: { domain: domain.toUpperCase() } });
      assert.equal(r.status, 409, r.text);
      assert.deepEqual(r.body, { error: `Domain already added: ${domain}` });
    }
    assert.equal(await db.domain.count({ where: { domain } }), 1);
    // Another library's domain is not found from here.
    assert.equal((await http("POST", `/v1/domains/${domain}/verify`, { key: second.key })).status, 404);
    assert.equal((await http("DELETE", `/v1/domains/${domain}`, { key: second.key })).status, 404);
  });

  it("verify: 409 `TXT record not found` until the record holds the value; then 200 verified", async () => {
    const { key } = await personalKey();
    const record = await added(key);
    const path = `/v1/domains/${record.domain}/verify`;
    const missing = await http("POST", path, { key });
    assert.equal(missing.status, 409, missing.text);
    assert.deepEqual(missing.body, { error: `TXT record not found: _qr-records.${record.domain}` });
    setTxtRecord(record.verification.name, ["qr-records-verify=someone-else", "v=spf1 -all"]);
    assert.equal((await http("POST", path, { key })).status, 409, "another value is not the record");
    setTxtRecord(record.verification.name, ["v=spf1 -all", record.verification.value]);
    const ok = await http("POST", path, { key });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((ok.body as { domain: DomainRecord }).domain.verified, true);
    // Verified stays verified: a record removed later does not break printed codes.
    setTxtRecord(record.verification.name, []);
    assert.equal((await http("POST", path, { key })).status, 409);
    const [listed] = ((await http("GET", "/v1/domains", { key })).body as { domains: DomainRecord[] }).domains;
    assert.equal(listed.verified, true);
    assert.equal((await http("POST", `/v1/domains/${fresh()}/verify`, { key })).status, 404);
  });

  it("dynamic codes take a verified domain of the library: short_url https://<domain>/<code>; else 400 or 409", async () => {
    const { key } = await personalKey();
    const domain = await verified(key);
    const created = await dynamic(key, { domain: domain.toUpperCase(), code: "menu" });
    assert.equal(created.status, 201, created.text);
    const [rec] = (created.body as { created: Dyn[] }).created;
    assert.equal(rec.domain, domain);
    assert.equal(rec.short_url, `https://${domain}/menu`);
    const got = await http("GET", "/v1/dynqrcodes/menu", { key });
    assert.equal((got.body as Dyn).short_url, `https://${domain}/menu`);
    const generated = await dynamic(key, { domain });
    const [gen] = (generated.body as { created: Dyn[] }).created;
    assert.equal(gen.short_url, `https://${domain}/${gen.code}`);

    const unknown = await dynamic(key, { domain: fresh() });
    assert.equal(unknown.status, 400, unknown.text);
    assert.match((unknown.body as { error: string }).error, /^Unknown domain: /);
    const pending = await added(key);
    const unverified = await dynamic(key, { domain: pending.domain });
    assert.equal(unverified.status, 409, unverified.text);
    assert.match((unverified.body as { error: string }).error, /^Domain not verified: /);
    const other = await personalKey();
    const theirs = await dynamic(other.key, { domain });
    assert.equal(theirs.status, 400, "another library's domain is unknown to this one");
    const batch = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: {
        dynqrcodes: [
          { name: "a", destination_url: "https://example.com/a", domain },
          { name: "b", destination_url: "https://example.com/b", domain: pending.domain },
        ],
      },
    });
    assert.equal(batch.status, 409, batch.text);
    assert.deepEqual(
      (batch.body as { errors: { index: number }[] }).errors.map((e) => e.index),
      [1],
    );
    assert.equal(await db.dynamicCode.count({ where: { domain } }), 2, "nothing of the refused batch was created");
  });

  it("a code is unique per domain (and within its library)", async () => {
    const first = await personalKey();
    const second = await personalKey();
    const domain = await verified(first.key);
    const code = `sale-${randomBytes(4).toString("hex")}`;
    assert.equal((await dynamic(first.key, { domain, code })).status, 201);
    // The same back-half on the default base, in another library: another short link.
    const elsewhere = await dynamic(second.key, { code });
    assert.equal(elsewhere.status, 201, elsewhere.text);
    assert.equal((elsewhere.body as { created: Dyn[] }).created[0].short_url, `${BASE_URL}/q/${code}`);
    // In the same library, the /v1 paths name a code by itself: taken.
    const again = await dynamic(first.key, { code });
    assert.equal(again.status, 409);
    assert.deepEqual(again.body, { error: `Code already in use: ${code}` });
    const twice = await dynamic(first.key, { domain, code });
    assert.equal(twice.status, 409);
  });

  it("DELETE: 409 `Domain in use by <n> codes` while live codes use it; then 200 and gone", async () => {
    const { key } = await personalKey();
    const domain = await verified(key);
    const codes = [];
    for (let i = 0; i < 2; i++)
      codes.push(((await dynamic(key, { domain })).body as { created: Dyn[] }).created[0].code);
    const busy = await http("DELETE", `/v1/domains/${domain}`, { key });
    assert.equal(busy.status, 409);
    assert.deepEqual(busy.body, { error: "Domain in use by 2 codes" });
    for (const code of codes) assert.equal((await http("DELETE", `/v1/dynqrcodes/${code}`, { key })).status, 200);
    const gone = await http("DELETE", `/v1/domains/${domain}`, { key });
    assert.equal(gone.status, 200, gone.text);
    assert.deepEqual(gone.body, { domain, deleted: true });
    assert.deepEqual((await http("GET", "/v1/domains", { key })).body, { domains: [] });
    assert.equal((await http("DELETE", `/v1/domains/${domain}`, { key })).status, 404);
  });

  it("in a team, admins manage domains (a writer's key 403), each change on the team's activity log", async () => {
    const team = await makeTeam();
    const writer = await team.addWriter();
    const forbidden = await http("POST", "/v1/domains", { key: writer.key, json: { domain: fresh() } });
    assert.equal(forbidden.status, 403, forbidden.text);
    assert.equal((await http("GET", "/v1/domains", { key: writer.key })).status, 403);
    const domain = await verified(team.adminKey);
    assert.equal((await http("DELETE", `/v1/domains/${domain}`, { key: writer.key })).status, 403);
    // A writer may put codes on the team's verified domain.
    const drafted = await dynamic(writer.key, { domain });
    assert.equal(drafted.status, 201, drafted.text);
    const code = (drafted.body as { created: Dyn[] }).created[0].code;
    assert.equal((await http("DELETE", `/v1/dynqrcodes/${code}`, { key: team.adminKey })).status, 200);
    assert.equal((await http("DELETE", `/v1/domains/${domain}`, { key: team.adminKey })).status, 200);
    const actions = await db.activityEntry.findMany({
      where: { teamId: team.id, target: domain },
      orderBy: { id: "asc" },
      select: { action: true, actorId: true },
    });
    assert.deepEqual(
      actions.map((a) => a.action),
      ["domain.added", "domain.verified", "domain.deleted"],
    );
    assert.ok(actions.every((a) => a.actorId === team.admin.id));
  });
});

const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1";

/** A request to the server with another Host, as a proxy in front passes a custom domain's (fetch cannot set Host). */
function onHost(host: string, method: string, path: string, body?: string) {
  const base = new URL(BASE_URL);
  return new Promise<{ status: number; location?: string; text: string }>((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        headers: {
          host,
          "user-agent": PHONE,
          ...(body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, location: res.headers.location, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("requests on a custom domain's Host", () => {
  it("/<code> is answered as /q/<code> is: 302 and a scan; HEAD redirects without one", async () => {
    const { key } = await personalKey();
    const domain = await verified(key);
    const code = `menu-${randomBytes(3).toString("hex")}`;
    assert.equal((await dynamic(key, { domain, code, destination_url: "https://example.com/menu" })).status, 201);
    const id = (await db.dynamicCode.findFirstOrThrow({ where: { domain, code } })).id;
    const got = await onHost(domain, "GET", `/${code}`);
    assert.equal(got.status, 302, got.text);
    assert.equal(got.location, "https://example.com/menu");
    const upper = await onHost(`${domain.toUpperCase()}:443`, "HEAD", `/${code}?utm=x`);
    assert.equal(upper.status, 302);
    const rows = await scansOf(id, 1);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].destinationUrl, "https://example.com/menu");
    assert.equal(rows[0].device, "mobile");
    // The code lives on its domain only: /q/ on the service's own host does not know it.
    assert.equal((await http("GET", `/q/${code}`)).status, 404);
    assert.equal((await onHost(domain, "GET", "/unknown-code")).status, 404);
  });

  it("every other path of the domain is 404: no pages, no /v1, no /q", async () => {
    const { key } = await personalKey();
    const domain = await verified(key);
    const defaultCode = ((await dynamic(key, {})).body as { created: Dyn[] }).created[0].code;
    for (const path of ["/", "/login", "/v1/dynqrcodes", "/v1/openapi.json", `/q/${defaultCode}`, "/a/b", "/mcp"]) {
      const r = await onHost(domain, "GET", path);
      assert.equal(r.status, 404, `${path}: ${r.text.slice(0, 100)}`);
    }
    const v1 = await onHost(domain, "POST", "/v1/dynqrcodes", "{}");
    assert.equal(v1.status, 404);
  });

  it("a host that is no verified domain behaves as today; verifying it makes it a domain at once", async () => {
    const { key } = await personalKey();
    const record = await added(key);
    const defaultCode = ((await dynamic(key, {})).body as { created: Dyn[] }).created[0].code;
    assert.equal((await onHost(record.domain, "GET", `/q/${defaultCode}`)).status, 302, "an unknown host serves /q/");
    assert.equal((await onHost(record.domain, "GET", "/login")).status, 200, "and the pages");
    setTxtRecord(record.verification.name, [record.verification.value]);
    assert.equal((await http("POST", `/v1/domains/${record.domain}/verify`, { key })).status, 200);
    assert.equal((await onHost(record.domain, "GET", "/login")).status, 404);
  });

  it("changes reach the domain's links at once: paused 404, deleted 410; a protected code's form posts to /<code>", async () => {
    const { key } = await personalKey();
    const domain = await verified(key);
    const code = ((await dynamic(key, { domain })).body as { created: Dyn[] }).created[0].code;
    assert.equal((await onHost(domain, "GET", `/${code}`)).status, 302);
    assert.equal((await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { status: "paused" } })).status, 200);
    assert.equal((await onHost(domain, "GET", `/${code}`)).status, 404);
    assert.equal((await http("DELETE", `/v1/dynqrcodes/${code}`, { key })).status, 200);
    assert.equal((await onHost(domain, "GET", `/${code}`)).status, 410);

    const locked = ((await dynamic(key, { domain, password: "open sesame" })).body as { created: Dyn[] }).created[0]
      .code;
    const form = await onHost(domain, "GET", `/${locked}`);
    assert.equal(form.status, 200);
    assert.match(form.text, new RegExp(`<form method="post" action="/${locked}">`));
    assert.equal((await onHost(domain, "POST", `/${locked}`, "password=wrong")).status, 401);
    const opened = await onHost(domain, "POST", `/${locked}`, "password=open+sesame");
    assert.equal(opened.status, 302);
    assert.equal(opened.location, "https://example.com/d");
  });

  it("GET /tls/ask?domain=: 200 for a verified domain, else 404 (a deleted one at once)", async () => {
    const { key } = await personalKey();
    const domain = await verified(key);
    const ask = (d: string) => http("GET", `/tls/ask?domain=${encodeURIComponent(d)}`);
    assert.equal((await ask(domain)).status, 200);
    assert.equal((await ask((await added(key)).domain)).status, 404, "not verified");
    for (const other of [fresh(), "", "127.0.0.1", new URL(BASE_URL).hostname, "x".repeat(5000)])
      assert.equal((await ask(other)).status, 404, other.slice(0, 40));
    assert.equal((await http("DELETE", `/v1/domains/${domain}`, { key })).status, 200);
    assert.equal((await ask(domain)).status, 404);
  });
});
