// Behind a proxy the operator trusts (TRUST_PROXY=1, no country header): the first
// X-Forwarded-For entry is the visitor, and its country comes from the bundled database.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { http, personalKey } from "../helpers";
import { startServer, type RunningServer } from "../../scripts/harness";
import { scansOf } from "../scans";

describe("TRUST_PROXY=1", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ TRUST_PROXY: "1", TRUST_PROXY_COUNTRY_HEADER: "" });
  });
  after(() => server.stop());

  it("the first X-Forwarded-For entry is the visitor; its country comes from DB-IP", async () => {
    const { key } = await personalKey();
    const created = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: "https://example.com/p", name: "Proxy" },
    });
    const code = (created.body as { created: { code: string }[] }).created[0].code;
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code } });
    const scan = (forwardedFor: string) =>
      fetch(`${server.base}/q/${code}`, {
        redirect: "manual",
        headers: {
          "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0",
          "x-forwarded-for": forwardedFor,
          "cf-ipcountry": "FR",
        },
      });
    assert.equal((await scan("81.2.69.142, 10.0.0.1")).status, 302);
    assert.equal((await scan("8.8.8.8")).status, 302);
    assert.equal((await scan("81.2.69.142")).status, 302);
    const rows = await scansOf(id, 3);
    // cf-ipcountry is ignored: this server names no trusted country header.
    assert.deepEqual(
      rows.map((r) => r.country),
      ["GB", "US", "GB"],
    );
    assert.deepEqual(
      rows.map((r) => r.unique),
      [true, true, false],
    );
    assert.notEqual(rows[0].visitorHash, rows[1].visitorHash);
    assert.equal(rows[0].visitorHash, rows[2].visitorHash);
  });

  it("behind a TLS proxy the document's server is https (X-Forwarded-Proto), so clients and Try it out call over TLS", async () => {
    const served = await fetch(`${server.base}/v1/openapi.json`, {
      headers: { "x-forwarded-host": "qr.example.org", "x-forwarded-proto": "https" },
    });
    assert.equal(served.status, 200);
    const doc = (await served.json()) as { servers: { url: string }[] };
    assert.deepEqual(
      doc.servers.map((s) => s.url),
      ["https://qr.example.org/v1"],
    );
  });
});
