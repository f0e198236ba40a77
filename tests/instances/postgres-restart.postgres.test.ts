// PostgreSQL restarted under load, on a cluster of the test's own (initdb, as the postgres
// user): every answer meanwhile is a clean contract error or a success, the service recovers
// by itself, and nothing accepted is lost (every 201 batch is stored whole, every redirect
// answered is recorded as a scan once the database is back).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import pg from "pg";
import { contractErrorShape, logIn } from "../helpers";
import { serverOnOwnPostgres } from "../own-postgres";

describe("PostgreSQL restarted under load", () => {
  const own = serverOnOwnPostgres();

  it("answers cleanly while it is down, recovers by itself, and loses nothing accepted", async () => {
    const { server, database } = own;
    const page = await logIn("pro@example.com", "demo-password", server.base);
    const { key } = (await page("keys.generatePersonal")) as { key: string };
    const headers = { "x-api-key": key, "content-type": "application/json" };
    const created = await fetch(`${server.base}/v1/dynqrcodes`, {
      method: "POST",
      headers,
      body: JSON.stringify({ destination_url: "https://example.com/pg", name: "PG" }),
    });
    const { code } = ((await created.json()) as { created: { code: string }[] }).created[0];

    const statuses = new Map<number, number>();
    const unclean: string[] = [];
    const batches: string[] = [];
    let redirects = 0;
    let running = true;
    const note = async (res: Response) => {
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 400) {
        const text = await res.text();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        if (contractErrorShape(body) !== "error") unclean.push(`${res.status} ${text.slice(0, 120)}`);
      } else await res.arrayBuffer();
    };
    const scans = async () => {
      while (running) {
        const res = await fetch(`${server.base}/q/${code}`, {
          redirect: "manual",
          headers: { "user-agent": "Mozilla/5.0 (iPhone) Safari/604.1" },
        });
        if (res.status === 302) redirects++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        await res.arrayBuffer();
      }
    };
    const creates = async () => {
      for (let n = 0; running; n++) {
        const tag = `pg-${n}-${Date.now()}`;
        const res = await fetch(`${server.base}/v1/qrcodes/batch`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            qrcodes: Array.from({ length: 10 }, (_, i) => ({ url: `https://example.com/${i}`, name: `${tag} ${i}` })),
          }),
        });
        if (res.status === 201) batches.push(tag);
        await note(res);
        await new Promise((r) => setTimeout(r, 220));
      }
    };
    const load = [scans(), creates()];
    await new Promise((r) => setTimeout(r, 700));
    database.stop();
    // /readyz (contract: "Operations"): 503 naming the database while it is away (without
    // Redis there is no copy of the codes to serve them all from: tests/instances/outage.postgres.test.ts).
    const down = await fetch(`${server.base}/readyz`);
    const { scans_behind: behind, ...downBody } = (await down.json()) as {
      status: string;
      checks: Record<string, string>;
      scans_behind?: { scans: number; seconds: number | null };
    };
    await new Promise((r) => setTimeout(r, 500));
    database.start();
    let readyAgain = 0;
    for (let i = 0; i < 100 && readyAgain !== 200; i++) {
      readyAgain = (await fetch(`${server.base}/readyz`)).status;
      if (readyAgain !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1500));
    running = false;
    await Promise.all(load);
    assert.equal(down.status, 503);
    assert.deepEqual(downBody, {
      status: "not ready",
      checks: { database: "unreachable", redis: "not configured", spool: "ok" },
    });
    assert.ok(behind && Number.isInteger(behind.scans) && behind.scans >= 0, "the unwritten scans are on /readyz");
    assert.equal(readyAgain, 200, "/readyz 200 again once PostgreSQL is back");

    assert.deepEqual(unclean, [], "every error during the outage is a contract error body");
    assert.ok((statuses.get(503) ?? 0) > 0, `the outage was seen: ${JSON.stringify([...statuses])}`);
    assert.equal(statuses.get(500) ?? 0, 0, "an unreachable database is 503, not 500");
    // Recovered by itself.
    const list = await fetch(`${server.base}/v1/qrcodes?limit=1`, { headers });
    assert.equal(list.status, 200);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      for (const tag of batches) {
        const { rows } = await client.query(`SELECT count(*)::int AS n FROM "StaticCode" WHERE "name" LIKE $1`, [
          `${tag} %`,
        ]);
        assert.equal(rows[0].n, 10, `batch ${tag}`);
      }
      let recorded = 0;
      for (let i = 0; i < 50 && recorded < redirects; i++) {
        await new Promise((r) => setTimeout(r, 200));
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM "ScanEvent" e JOIN "DynamicCode" c ON c."id" = e."dynamicCodeId" WHERE c."code" = $1`,
          [code],
        );
        recorded = rows[0].n;
      }
      assert.equal(recorded, redirects, "every redirect answered was recorded");
    } finally {
      await client.end();
    }
    console.log(
      `# PostgreSQL restart under load: ${JSON.stringify(Object.fromEntries(statuses))}, ${redirects} redirects all recorded, ${batches.length} batches all whole`,
    );
  });
});
