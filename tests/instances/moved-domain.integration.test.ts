// Issue 43's goal "a moved domain with 100,000 imported links: every one redirects to its
// destination", as README "Moving in" tells a team to move: the short domain added and verified
// (its TXT record at the run's DNS server), 100,000 links sent as one bundle onto it (what
// `qr-records import-from … --domain` sends), each keeping the back-half it had at the old
// service; then every `https://<domain>/<back-half>` asked over keep-alive with the domain's Host,
// as a proxy in front passes it, and every answer checked: 302 to that link's own destination,
// and the scans recorded. One backend: what is checked is the edge and the cache, not the database.
// On a server and a database of its own (tests/tiers.ts, OWN_DATABASE): its import holds
// SQLite's one writer for seconds, which the run's other files would wait on.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { Agent, request } from "node:http";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/harness";
import { db } from "../../server/platform/db";
import { setTxtRecord } from "../dns-server";
import { http, personalKey } from "../helpers";

const LINKS = 100_000;
const CONCURRENCY = 32;
const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1";
const WORDS = ["spring", "Sale", "menu", "table", "event", "promo", "FLYER", "store", "card", "info"];

/**
 * The back-halves an export holds: random ones of several lengths in both cases, and custom ones
 * made of words, digits, `-` and `_` (the other services' own alphabets), all distinct.
 */
function backHalf(n: number): string {
  const id = n.toString(36);
  switch (n % 4) {
    case 0:
      return `${WORDS[n % WORDS.length]}-${id}`;
    case 1:
      return `${randomBytes(3).toString("base64url")}${id.toUpperCase()}`;
    case 2:
      return `${WORDS[(n >> 2) % WORDS.length]}_${n % 97}_${id}`;
    default:
      return `${id}${randomBytes(2).toString("hex")}`;
  }
}

/** GET `path` of `server` with another Host over the shared keep-alive agent: status and Location. */
function onHost(server: RunningServer, agent: Agent, host: string, path: string) {
  const base = new URL(server.base);
  return new Promise<{ status: number; location?: string }>((resolve, reject) => {
    const req = request(
      { agent, host: base.hostname, port: base.port, path, headers: { host, "user-agent": PHONE } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode!, location: res.headers.location }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("a moved domain", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it(`with ${LINKS.toLocaleString("en")} imported links: every one redirects to its destination`, async () => {
    const { key, user } = await personalKey();
    // The short domain, added and verified while it still points at the old service.
    const domain = `go-${randomBytes(5).toString("hex")}.example.com`;
    const added = await http("POST", "/v1/domains", { key, json: { domain }, base: server.base });
    assert.equal(added.status, 201, added.text);
    const { verification } = (added.body as { domain: { verification: { name: string; value: string } } }).domain;
    setTxtRecord(verification.name, [verification.value]);
    assert.equal((await http("POST", `/v1/domains/${domain}/verify`, { key, base: server.base })).status, 200);

    const links = Array.from({ length: LINKS }, (_, n) => ({
      code: backHalf(n),
      destination: `https://shop.example.com/p/${n}?ref=print&n=${n}`,
    }));
    assert.equal(new Set(links.map((l) => l.code)).size, LINKS, "the back-halves are distinct");
    const createdAt = Math.floor(Date.now() / 1000) - 86_400;
    const bundle = [
      JSON.stringify({ type: "bundle", version: 1 }),
      JSON.stringify({ type: "domain", domain, verified: true }),
      ...links.map((l, n) =>
        JSON.stringify({
          type: "dynamic",
          code: l.code,
          domain,
          destination_url: l.destination,
          name: `Link ${n}`,
          created_at: createdAt,
        }),
      ),
    ].join("\n");
    const imported = await http("POST", "/v1/bundle", {
      key,
      base: server.base,
      body: `${bundle}\n`,
      headers: { "content-type": "application/x-ndjson" },
    });
    assert.equal(imported.status, 200, imported.text.slice(0, 2000));
    assert.deepEqual((imported.body as { created: object }).created, { static: 0, dynamic: LINKS, scans: 0 });

    // Every back-half, 32 at a time over keep-alive connections.
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const wrong: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < LINKS) {
        const link = links[next++];
        const got = await onHost(server, agent, domain, `/${link.code}`);
        if (got.status !== 302 || got.location !== link.destination)
          wrong.push(`/${link.code}: ${got.status} ${got.location ?? ""}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();
    assert.deepEqual(wrong.slice(0, 20), [], `${wrong.length} of ${LINKS} did not redirect to their destination`);

    // Each redirect was a scan of its own code, recorded (written in batches, a moment after).
    const ids = (
      await db.dynamicCode.findMany({ where: { userId: user.id, teamId: null, domain }, select: { id: true } })
    ).map((c) => c.id);
    assert.equal(ids.length, LINKS);
    const scanned = async () => {
      let codes = 0;
      let scans = 0;
      // Within the parameters a query may bind (SQLite's build allows 999).
      for (let i = 0; i < ids.length; i += 900) {
        const groups = await db.scanEvent.groupBy({
          by: ["dynamicCodeId"],
          where: { dynamicCodeId: { in: ids.slice(i, i + 900) } },
          _count: true,
        });
        codes += groups.length;
        scans += groups.reduce((sum, g) => sum + g._count, 0);
      }
      return { codes, scans };
    };
    let seen = await scanned();
    for (const deadline = Date.now() + 60_000; seen.scans < LINKS && Date.now() < deadline; seen = await scanned())
      await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(seen, { codes: LINKS, scans: LINKS }, "one scan recorded for every code");
  });
});
