// A hosted page through a PostgreSQL outage (issue 44; docs/TYPES.md "Hosted pages"): the page's
// content travels in the copy of every code kept in Redis like a destination, so an instance that
// never resolved the codes answers a `page` code's page and a `vcard` code's card and download
// while the database is down, and the page's scan is recorded once it is back.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import pg from "pg";
import { startServer } from "../../scripts/harness";
import { logIn } from "../helpers";
import { outageRig } from "../own-postgres";

const UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("hosted pages through a PostgreSQL outage", () => {
  const rig = outageRig();

  it("answers the page and the card from the live copy, and records the page's scan after", async () => {
    const { database, redis, servers } = rig;
    const env = { DATABASE_URL: database.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: "qrhosted:" };
    const maker = await startServer(env);
    servers.push(maker);
    const page = await logIn("pro@example.com", "demo-password", maker.base);
    const { key } = (await page("keys.generatePersonal")) as { key: string };
    const create = async (json: object) => {
      const res = await fetch(`${maker.base}/v1/dynqrcodes`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({ name: "Hosted", ...json }),
      });
      assert.equal(res.status, 201);
      return ((await res.json()) as { created: { code: string }[] }).created[0].code;
    };
    const links = await create({
      type: "page",
      content: { title: "Before", links: [{ label: "Menu", url: "https://example.com/menu" }] },
    });
    // Changed right before the outage: the new content is the one served.
    const changed = await fetch(`${maker.base}/v1/dynqrcodes/${links}`, {
      method: "PATCH",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({
        content: { title: "Through the outage", links: [{ label: "Menu", url: "https://example.com/menu" }] },
      }),
    });
    assert.equal(changed.status, 200);
    const card = await create({ type: "vcard", content: { first_name: "Ada", phones: ["+44 20 7946 0000"] } });

    const server = await startServer(env);
    servers.push(server);
    database.stop();
    let status = "";
    for (let i = 0; i < 50 && status !== "degraded"; i++) {
      status = ((await (await fetch(`${server.base}/readyz`)).json()) as { status: string }).status;
      if (status !== "degraded") await sleep(200);
    }
    assert.equal(status, "degraded");

    const answer = await fetch(`${server.base}/q/${links}`, { headers: { "user-agent": UA } });
    assert.equal(answer.status, 200);
    assert.match(await answer.text(), /<h1>Through the outage<\/h1>/);
    const cardPage = await fetch(`${server.base}/q/${card}`, { headers: { "user-agent": `${UA} card` } });
    assert.equal(cardPage.status, 200);
    assert.match(await cardPage.text(), /<a href="tel:\+442079460000">/);
    const vcf = await fetch(`${server.base}/q/${card}?format=vcf`, { headers: { "user-agent": UA } });
    assert.equal(vcf.headers.get("content-type"), "text/vcard; charset=utf-8");
    assert.match(await vcf.text(), /\r\nFN:Ada\r\n/);
    database.start();

    for (let i = 0; i < 150 && (await fetch(`${server.base}/readyz`)).status !== 200; i++) await sleep(200);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      let rows: { code: string; destinationUrl: string }[] = [];
      for (let i = 0; i < 150 && rows.length < 2; i++) {
        rows = (
          await client.query(
            `SELECT c."code", e."destinationUrl" FROM "ScanEvent" e JOIN "DynamicCode" c ON c."id" = e."dynamicCodeId" WHERE c."code" = ANY($1) ORDER BY c."code"`,
            [[links, card]],
          )
        ).rows;
        if (rows.length < 2) await sleep(200);
      }
      assert.deepEqual(
        rows,
        [links, card].sort().map((code) => ({ code, destinationUrl: "" })),
        "the two pages' scans, once each; the download is none",
      );
    } finally {
      await client.end();
    }
  });
});
