// A PostgreSQL outage with Redis (contract: "Short links that never fail and never lose a
// scan"): a cluster of the test's own is stopped for 20 s under /q load over 1,000 active codes
// that the serving instance has never resolved (plus a paused and a deleted one, and one whose
// destination changed right before). 0 × 5xx; paused and deleted answer 404 and 410 as before;
// the changed code goes to its new destination; /readyz 200 "degraded"; every redirect answered
// is recorded once the database is back, none twice.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import pg from "pg";
import { startServer } from "../../scripts/harness";
import { visitorHash } from "../../server/scan/visitor";
import { CLIENT_ADDRESS, logIn } from "../helpers";
import { outageRig } from "../own-postgres";

const UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const OUTAGE_MS = 20_000;
const CODES = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("PostgreSQL outage with Redis", () => {
  const rig = outageRig();

  it("every active code redirects through a 20 s outage, paused and deleted keep 404 and 410, and every scan is recorded once after", async (t) => {
    const { database, redis, servers } = rig;
    const env = { DATABASE_URL: database.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: "qroutage:" };
    // The codes are made on one instance; another, started afterwards, serves the outage.
    const maker = await startServer(env);
    servers.push(maker);
    const page = await logIn("pro@example.com", "demo-password", maker.base);
    const { key } = (await page("keys.generatePersonal")) as { key: string };
    // The set-up before the outage, sent as a client would: a 429, or a 503 of a database that a
    // busy machine kept from answering in time (once in CI beside other files), is sent again.
    const send = async (method: string, path: string, body?: unknown) => {
      for (let attempt = 1; ; attempt++) {
        const res = await fetch(`${maker.base}/v1${path}`, {
          method,
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        if (res.status !== 429 && (res.status !== 503 || attempt === 5)) return res;
        await sleep(1000 * Number(res.headers.get("retry-after") ?? 1));
      }
    };
    const codes: { code: string; destination: string }[] = [];
    for (let i = 0; codes.length < CODES + 3; i++) {
      const items = Array.from({ length: 50 }, (_, j) => ({
        destination_url: `https://example.com/outage/${i * 50 + j}`,
        name: `Outage ${i * 50 + j}`,
      }));
      const res = await send("POST", "/dynqrcodes/batch", { dynqrcodes: items });
      assert.equal(res.status, 201);
      for (const c of ((await res.json()) as { created: { code: string; destination_url: string }[] }).created)
        codes.push({ code: c.code, destination: c.destination_url });
    }
    const [paused, deleted, changed] = codes.splice(CODES, 3);
    codes.length = CODES - 1;
    assert.equal((await send("PATCH", `/dynqrcodes/${paused.code}`, { status: "paused" })).status, 200);
    assert.equal((await send("DELETE", `/dynqrcodes/${deleted.code}`)).status, 200);
    // Right before the outage: the new destination is the one served.
    changed.destination = "https://example.com/outage/changed";
    assert.equal(
      (await send("PATCH", `/dynqrcodes/${changed.code}`, { destination_url: changed.destination })).status,
      200,
    );
    codes.push(changed);

    const server = await startServer(env);
    servers.push(server);
    database.stop();
    // /readyz: degraded (200) once the database does not answer and the copy is loaded.
    let ready: { status: number; body: unknown } = { status: 0, body: null };
    for (let i = 0; i < 50 && (ready.body as { status?: string } | null)?.status !== "degraded"; i++) {
      const res = await fetch(`${server.base}/readyz`);
      ready = { status: res.status, body: await res.json() };
      if ((ready.body as { status: string }).status !== "degraded") await sleep(200);
    }
    assert.deepEqual(ready, {
      status: 200,
      body: {
        status: "degraded",
        checks: { database: "unreachable", redis: "ok", spool: "ok" },
        scans_behind: { scans: 0, seconds: 0 },
      },
    });

    // Load over every code for the outage's length, each request its own visitor.
    const statuses = new Map<number, number>();
    const answered: number[] = [];
    const wrong: string[] = [];
    let n = 0;
    const end = Date.now() + OUTAGE_MS;
    const worker = async () => {
      while (Date.now() < end) {
        const i = n++;
        const { code, destination } = codes[i % codes.length];
        const res = await fetch(`${server.base}/q/${code}`, {
          redirect: "manual",
          headers: { "user-agent": `${UA} o${i}` },
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 302) {
          answered.push(i);
          if (res.headers.get("location") !== destination) wrong.push(`${code} → ${res.headers.get("location")}`);
        }
      }
    };
    const outcomes: Record<string, number> = {};
    const special = async () => {
      while (Date.now() < end) {
        for (const [name, c] of [
          ["paused", paused],
          ["deleted", deleted],
        ] as const) {
          const res = await fetch(`${server.base}/q/${c.code}`, { redirect: "manual", headers: { "user-agent": UA } });
          await res.arrayBuffer();
          outcomes[`${name} ${res.status}`] = (outcomes[`${name} ${res.status}`] ?? 0) + 1;
        }
        await sleep(500);
      }
    };
    await Promise.all([...Array.from({ length: 6 }, worker), special()]);
    database.start();

    t.diagnostic(
      `outage of ${OUTAGE_MS / 1000} s over ${codes.length} codes: ${JSON.stringify(Object.fromEntries(statuses))}, paused/deleted ${JSON.stringify(outcomes)}`,
    );
    assert.deepEqual([...statuses.keys()], [302], "every active code redirected, no 5xx");
    assert.ok(
      new Set(answered.map((i) => i % codes.length)).size === codes.length,
      "every one of the codes was scanned",
    );
    assert.deepEqual(wrong, [], "each to its destination, the changed one to its new one");
    assert.deepEqual(Object.keys(outcomes).sort(), ["deleted 410", "paused 404"]);

    // Back: every redirect answered is written, once.
    for (let i = 0; i < 150 && (await fetch(`${server.base}/readyz`)).status !== 200; i++) await sleep(200);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const ids = [...codes.map((c) => c.code)];
      let rows: { visitorHash: string }[] = [];
      for (let i = 0; i < 150; i++) {
        rows = (
          await client.query(
            `SELECT e."visitorHash" FROM "ScanEvent" e JOIN "DynamicCode" c ON c."id" = e."dynamicCodeId" WHERE c."code" = ANY($1)`,
            [ids],
          )
        ).rows;
        if (rows.length >= answered.length) break;
        await sleep(200);
      }
      const seen = new Map<string, number>();
      for (const r of rows) seen.set(r.visitorHash, (seen.get(r.visitorHash) ?? 0) + 1);
      const missing = answered.filter((i) => !seen.has(visitorHash(CLIENT_ADDRESS, `${UA} o${i}`)));
      assert.deepEqual(missing, [], "every redirect answered during the outage is recorded");
      assert.equal(rows.length, answered.length, "and none twice");
      t.diagnostic(`${answered.length} redirects during the outage, ${rows.length} scans recorded after it`);
    } finally {
      await client.end();
    }
  });
});
