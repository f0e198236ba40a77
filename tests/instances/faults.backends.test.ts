// Faults: kill -9 in the middle of a stream of batch creates leaves every batch whole or
// absent, and every batch that was answered 201 is there after the restart; Redis stopped
// and started under load costs no 5xx and loses nothing; a key revoked on one instance is
// refused by the very next request on another instance sharing the database and Redis.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/harness";
import { db } from "../../server/platform/db";
import { logIn, personalKey, TEST_PASSWORD, until, withPair } from "../helpers";
import { scansOf } from "../scans";

const KEYS = 8;
const BATCH = 50;

describe("kill -9 during batch creates", () => {
  let server: RunningServer | undefined;
  after(() => server?.stop());

  it("every batch is whole or absent after a restart, and every 201 was kept", async () => {
    const env = { REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX ?? "qr:"}faults:` };
    server = await startServer(env);
    const base = server.base;
    const run = `k${Date.now().toString(36)}`;
    const accounts = await Promise.all(Array.from({ length: KEYS }, () => personalKey()));
    const answered = new Set<string>();
    const sentBatches = new Set<string>();
    let refused = 0;
    let cut = 0;
    // Each lane sends its next batch as soon as the previous one is answered, so batches are
    // being written when the kill comes; the key's limit answers some with 429 meanwhile.
    const stream = async (key: string, lane: number) => {
      for (let n = 0; ; n++) {
        const tag = `${run}-${lane}-${n}`;
        const kind = n % 2 === 0 ? "qrcodes" : "dynqrcodes";
        const items = Array.from({ length: BATCH }, (_, i) =>
          kind === "qrcodes"
            ? { url: `https://example.com/${i}`, name: `${tag} ${i}` }
            : { destination_url: `https://example.com/${i}`, name: `${tag} ${i}` },
        );
        sentBatches.add(tag);
        try {
          const res = await fetch(`${base}/v1/${kind}/batch`, {
            method: "POST",
            headers: { "x-api-key": key, "content-type": "application/json" },
            body: JSON.stringify({ [kind]: items }),
          });
          await res.arrayBuffer();
          if (res.status === 201) answered.add(tag);
          else if (res.status === 429) refused++;
          else assert.fail(`${tag}: ${res.status}`);
        } catch {
          cut++; // the server is gone
          return;
        }
      }
    };
    const lanes = accounts.map((a, lane) => stream(a.key, lane));
    // Killed while every lane is busy: once each has had batches answered.
    await until(() => answered.size >= 2 * KEYS, "batches to be answered on every lane");
    server.child.kill("SIGKILL");
    await server.exited;
    await Promise.all(lanes);
    assert.ok(answered.size >= KEYS, `batches answered before the kill: ${answered.size}`);
    assert.equal(cut, KEYS, "every lane was still sending when the server died");

    server = await startServer(env);
    const names = [
      ...(await db.staticCode.findMany({ where: { name: { startsWith: run } }, select: { name: true } })),
      ...(await db.dynamicCode.findMany({ where: { name: { startsWith: run } }, select: { name: true } })),
    ].map((r) => r.name.split(" ")[0]);
    const counts = new Map<string, number>();
    for (const tag of names) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    for (const [tag, count] of counts) assert.equal(count, BATCH, `batch ${tag} is partial: ${count} of ${BATCH}`);
    for (const tag of answered) assert.equal(counts.get(tag), BATCH, `batch ${tag} was answered 201 and is gone`);
    console.log(
      `# kill -9: ${sentBatches.size} batches sent, ${answered.size} answered 201, ${refused} answered 429, ${counts.size} stored whole, 0 partial`,
    );
    // The restarted server serves them.
    const r = await fetch(`${server.base}/v1/qrcodes?limit=1`, { headers: { "x-api-key": accounts[0].key } });
    assert.equal(r.status, 200);
  });
});

describe("two instances sharing the database and a Redis", () => {
  const pair = withPair();

  it("Redis stopped and started under load: no 5xx, nothing accepted lost, shared state back by itself", async () => {
    const accounts = await Promise.all(Array.from({ length: 4 }, () => personalKey()));
    const owner = accounts[0];
    const created = await fetch(`${pair.a.base}/v1/dynqrcodes`, {
      method: "POST",
      headers: { "x-api-key": owner.key, "content-type": "application/json" },
      body: JSON.stringify({ destination_url: "https://example.com/before", name: "Under load" }),
    });
    const { code } = ((await created.json()) as { created: { code: string }[] }).created[0];
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code } });
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const batches: string[] = [];
    let redirects = 0;
    let running = true;
    const scans = async (base: string, lane: number) => {
      for (let n = 0; running; n++) {
        const res = await fetch(`${base}/q/${code}`, {
          redirect: "manual",
          headers: { "user-agent": `Mozilla/5.0 (load ${lane}) Safari/604.1` },
        });
        count(res.status);
        if (res.status === 302) redirects++;
      }
    };
    const creates = async (key: string, lane: number) => {
      for (let n = 0; running; n++) {
        const tag = `redis-${lane}-${n}-${Date.now()}`;
        const res = await fetch(`${[pair.a, pair.b][n % 2].base}/v1/qrcodes/batch`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify({
            qrcodes: Array.from({ length: 10 }, (_, i) => ({ url: `https://example.com/${i}`, name: `${tag} ${i}` })),
          }),
        });
        count(res.status);
        await res.arrayBuffer();
        if (res.status === 201) batches.push(tag);
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const load = [scans(pair.a.base, 1), scans(pair.b.base, 2), ...accounts.map((a, lane) => creates(a.key, lane))];
    await new Promise((r) => setTimeout(r, 800));
    await pair.redis.stop();
    await new Promise((r) => setTimeout(r, 1200));
    await pair.redis.start();
    await new Promise((r) => setTimeout(r, 1500));
    running = false;
    await Promise.all(load);

    const fiveHundreds = [...statuses].filter(([s]) => s >= 500);
    assert.deepEqual(fiveHundreds, [], `statuses: ${JSON.stringify([...statuses])}`);
    assert.ok(redirects > 100 && batches.length >= 8, `redirects ${redirects}, batches ${batches.length}`);
    for (const tag of batches)
      assert.equal(await db.staticCode.count({ where: { name: { startsWith: `${tag} ` } } }), 10, `batch ${tag}`);
    assert.equal((await scansOf(id, redirects)).length, redirects, "every redirect answered was recorded");
    // Back to normal by itself: a change on A is seen on B again.
    await fetch(`${pair.a.base}/v1/dynqrcodes/${code}`, {
      method: "PATCH",
      headers: { "x-api-key": owner.key, "content-type": "application/json" },
      body: JSON.stringify({ destination_url: "https://example.com/after" }),
    });
    await new Promise((r) => setTimeout(r, 250));
    const after = await fetch(`${pair.b.base}/q/${code}`, { redirect: "manual" });
    assert.equal(after.headers.get("location"), "https://example.com/after");
    console.log(
      `# Redis restart under load: ${JSON.stringify(Object.fromEntries(statuses))}, ${redirects} redirects all recorded, ${batches.length} batches all whole`,
    );
  });

  it("a key revoked on one instance is refused by the very next request on the other", async () => {
    const { user, key } = await personalKey();
    const get = (base: string) => fetch(`${base}/v1/dynqrcodes`, { headers: { "x-api-key": key } });
    assert.equal((await get(pair.b.base)).status, 200);
    const page = await logIn(user.email, TEST_PASSWORD, pair.a.base);
    await page("keys.revokePersonal");
    const next = await get(pair.b.base);
    assert.equal(next.status, 401);
    assert.deepEqual(await next.json(), { error: "API key has been revoked" });
  });
});
