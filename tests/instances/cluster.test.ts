// The production recipe, run: Debian's nginx with deploy/nginx/qr-records.conf (ports
// rewritten) in front of three instances on PostgreSQL + Redis. Under steady /q and /v1 GET
// traffic through nginx, one instance gets SIGTERM and is started again, another is killed with
// kill -9. Then: no 5xx from nginx for /q and GETs (retried upstream), no scan lost but what
// the killed instance had buffered (reported), the daily quota still exact across the
// surviving instances, and a revocation refused by the very next request through nginx. Then
// the database goes away under load (the instances reach PostgreSQL through a relay of the
// test's own, which refuses and cuts every connection for a while, as a stopped server does):
// no 5xx for /q through nginx, /v1 503, and every redirect recorded once it is back; and a
// page's action through nginx on its non-default port is not refused as cross-site.
// PostgreSQL + Redis only (`npm test` with DATABASE_URL=postgresql://… and REDIS_URL).
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { db } from "../../server/db";
import { freePort, startServer, type RunningServer } from "../../scripts/harness";
import { makeTeam, personalKey, revokeKey } from "../helpers";
import { faultRelay } from "../fault-relay";
import { env as serverEnv } from "../../server/env";

const NGINX = "/usr/sbin/nginx";
const usable = (process.env.DATABASE_URL ?? "").startsWith("postgres") && Boolean(process.env.REDIS_URL) && existsSync(NGINX);
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const QUOTA = 15;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** nginx in the foreground with the deploy/ site, its upstreams and port rewritten. */
async function startNginx(upstreams: number[]) {
  const dir = mkdtempSync(path.join(tmpdir(), "qr-nginx-"));
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(path.join(dir, sub));
  const port = await freePort();
  let site = readFileSync("deploy/nginx/qr-records.conf", "utf8");
  upstreams.forEach((p, i) => (site = site.replace(`127.0.0.1:${3001 + i} `, `127.0.0.1:${p} `)));
  assert.ok(!/127\.0\.0\.1:300[123] /.test(site), "every upstream rewritten");
  site = site.replace("listen 80;", `listen 127.0.0.1:${port};`);
  writeFileSync(path.join(dir, "site.conf"), site);
  writeFileSync(
    path.join(dir, "nginx.conf"),
    `${userInfo().uid === 0 ? "user root;\n" : ""}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log")], { stdio: "ignore" });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${readFileSync(path.join(dir, "error.log"), "utf8")}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      if (i > 100) throw new Error("nginx did not start");
    }
    await sleep(100);
  }
  return {
    base,
    errors: () => (existsSync(path.join(dir, "error.log")) ? readFileSync(path.join(dir, "error.log"), "utf8") : ""),
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      if (child.exitCode === null) child.kill("SIGQUIT");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One sample of a metric, read from an instance directly (loopback). */
async function metric(base: string, line: RegExp): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const found = text.split("\n").find((l) => line.test(l));
  return found ? Number(found.slice(found.lastIndexOf(" ") + 1)) : 0;
}

describe("a cluster behind nginx", { skip: usable ? false : "PostgreSQL + Redis + nginx only" }, () => {
  const servers: RunningServer[] = [];
  const ports: number[] = [];
  let nginx: Awaited<ReturnType<typeof startNginx>>;
  let relay: Awaited<ReturnType<typeof faultRelay>>;
  const env = { TRUST_PROXY: "1", SHUTDOWN_DRAIN_SECONDS: "1", RATE_LIMIT_PERSONAL_DAILY_QUOTA: String(QUOTA), DATABASE_URL: "" };
  before(async () => {
    relay = await faultRelay(serverEnv.databaseUrl);
    env.DATABASE_URL = relay.url;
    for (let i = 0; i < 3; i++) ports.push(await freePort());
    servers.push(...(await Promise.all(ports.map((port) => startServer(env, port)))));
    nginx = await startNginx(ports);
  });
  after(async () => {
    await nginx?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    relay?.close();
  });

  it("SIGTERM + restart and kill -9 under traffic: no 5xx for /q and GETs, no scan lost but the killed one's buffer", async (t) => {
    const team = await makeTeam();
    const headers = { "x-api-key": team.adminKey, "content-type": "application/json" };
    const created = await fetch(`${nginx.base}/v1/dynqrcodes`, { method: "POST", headers, body: JSON.stringify({ destination_url: "https://example.com/cluster", name: "Cluster" }) });
    assert.equal(created.status, 201);
    const { code } = ((await created.json()) as { created: { code: string }[] }).created[0];
    await db.dynamicCode.update({ where: { code }, data: { status: "active" } });
    await sleep(300); // the change reaches every instance's cache

    const statuses: Record<string, Record<number, number>> = { q: {}, v1: {} };
    const note = (kind: string, status: number) => (statuses[kind][status] = (statuses[kind][status] ?? 0) + 1);
    let redirects = 0;
    let running = true;
    const scans = async () => {
      while (running) {
        const res = await fetch(`${nginx.base}/q/${code}`, { redirect: "manual", headers: { "user-agent": IPHONE } });
        await res.arrayBuffer();
        note("q", res.status);
        if (res.status === 302) redirects++;
      }
    };
    const reads = async () => {
      while (running) {
        const res = await fetch(`${nginx.base}/v1/dynqrcodes?limit=5`, { headers: { "x-api-key": team.adminKey } });
        await res.arrayBuffer();
        note("v1", res.status);
        await sleep(120); // under the business key's 10 a second
      }
    };
    const load = [scans(), scans(), scans(), reads()];
    await sleep(1500);

    // SIGTERM to the first: drained and stopped, then started again on its port.
    assert.equal(await servers[0].stop(), 0);
    servers[0] = await startServer(env, ports[0]);
    await sleep(1000);
    // kill -9 to the second, its buffer read just before (redirects counted, scans written).
    const killed = servers[1];
    const [answered, written] = [await metric(killed.base, /^qr_short_link_requests_total\{outcome="redirect"\}/), await metric(killed.base, /^qr_scans_recorded_total /)];
    killed.child.kill("SIGKILL");
    await killed.exited;
    const bufferedAtKill = answered - written;
    await sleep(2000);
    running = false;
    await Promise.all(load);

    const { id } = await db.dynamicCode.findUniqueOrThrow({ where: { code } });
    // The survivors write within 200 ms; the restarted one too.
    await sleep(1000);
    const recorded = await db.scanEvent.count({ where: { dynamicCodeId: id } });
    const lost = redirects - recorded;
    t.diagnostic(`/q ${JSON.stringify(statuses.q)}, /v1 GET ${JSON.stringify(statuses.v1)}; redirects ${redirects}, scans recorded ${recorded}, lost ${lost}; the kill -9'd instance had ${bufferedAtKill} buffered when its metrics were read`);
    // nginx met the stopped and killed instances and went on to the others.
    const upstreamFailures = nginx.errors().split("\n").filter((l) => /upstream/.test(l)).length;
    t.diagnostic(`nginx logged ${upstreamFailures} upstream failures (refused or reset connections, retried on another instance)`);
    assert.ok(upstreamFailures > 0, "nginx never met a stopped instance");
    const fivexx = (counts: Record<number, number>) => Object.entries(counts).filter(([s]) => Number(s) >= 500);
    assert.deepEqual(fivexx(statuses.q), [], nginx.errors().slice(-2000));
    assert.deepEqual(fivexx(statuses.v1), []);
    assert.ok(redirects > 200, "traffic flowed");
    assert.ok((statuses.v1[200] ?? 0) > 10, "API traffic flowed");
    assert.ok(lost >= 0, `more scans than redirects: ${recorded} > ${redirects}`);
    // What reached the killed instance between the read and the kill is a few milliseconds' worth.
    assert.ok(lost <= bufferedAtKill + 20, `lost ${lost} > buffered ${bufferedAtKill} + 20`);
  });

  it("the daily quota is exact across the surviving instances, and a revocation holds at the next request", async () => {
    const { user, key, keyId } = await personalKey();
    const got: number[] = [];
    for (let i = 0; i < QUOTA + 5; i++) {
      const res = await fetch(`${nginx.base}/v1/qrcodes?limit=1`, { headers: { "x-api-key": key } });
      await res.arrayBuffer();
      got.push(res.status);
      await sleep(150); // under the bucket: only the quota decides
    }
    assert.deepEqual(
      got.map((s) => (s === 200 ? "ok" : String(s))),
      [...Array(QUOTA).fill("ok"), ...Array(5).fill("429")],
    );

    const other = await personalKey();
    const before = [];
    for (let i = 0; i < 3; i++) before.push((await fetch(`${nginx.base}/v1/qrcodes?limit=1`, { headers: { "x-api-key": other.key } })).status);
    assert.deepEqual(before, [200, 200, 200]);
    await revokeKey(other.keyId, other.user.id);
    const after = [];
    for (let i = 0; i < 3; i++) after.push((await fetch(`${nginx.base}/v1/qrcodes?limit=1`, { headers: { "x-api-key": other.key } })).status);
    assert.deepEqual(after, [401, 401, 401]);
    void user;
    void keyId;
  });

  it("the database away under load: no 5xx for /q through nginx, /v1 503, every redirect recorded after; pages on a non-default port", async (t) => {
    const team = await makeTeam();
    const headers = { "x-api-key": team.adminKey, "content-type": "application/json" };
    const created = await fetch(`${nginx.base}/v1/dynqrcodes`, { method: "POST", headers, body: JSON.stringify({ destination_url: "https://example.com/outage", name: "Outage" }) });
    const { code } = ((await created.json()) as { created: { code: string }[] }).created[0];
    await db.dynamicCode.update({ where: { code }, data: { status: "active" } });
    await sleep(500); // the change reaches every instance's cache and copy
    const { id } = await db.dynamicCode.findUniqueOrThrow({ where: { code } });
    const before = await db.scanEvent.count({ where: { dynamicCodeId: id } });

    const statuses: Record<string, Record<number, number>> = { q: {}, v1: {} };
    const note = (kind: string, status: number) => (statuses[kind][status] = (statuses[kind][status] ?? 0) + 1);
    let redirects = 0;
    let slowest503 = 0;
    let running = true;
    const scans = async (n: number) => {
      for (let i = 0; running; i++) {
        const res = await fetch(`${nginx.base}/q/${code}`, { redirect: "manual", headers: { "user-agent": `${IPHONE} o${n}-${i}` } });
        await res.arrayBuffer();
        note("q", res.status);
        if (res.status === 302) redirects++;
      }
    };
    const reads = async () => {
      while (running) {
        const started = Date.now();
        const res = await fetch(`${nginx.base}/v1/dynqrcodes?limit=5`, { headers: { "x-api-key": team.adminKey } });
        await res.arrayBuffer();
        note("v1", res.status);
        if (res.status === 503) slowest503 = Math.max(slowest503, Date.now() - started);
        await sleep(120);
      }
    };
    const load = [scans(1), scans(2), scans(3), reads()];
    await sleep(1000);
    await relay.set("refuse");
    await sleep(6000);
    await relay.set("relay");
    await sleep(2000);
    running = false;
    await Promise.all(load);
    t.diagnostic(`/q ${JSON.stringify(statuses.q)}, /v1 GET ${JSON.stringify(statuses.v1)} (503 within ${slowest503} ms); redirects ${redirects}`);
    assert.deepEqual(Object.keys(statuses.q), ["302"], nginx.errors().slice(-2000));
    assert.ok((statuses.v1[503] ?? 0) > 0, "/v1 met the outage");
    assert.ok(slowest503 < 2000, `a 503 took ${slowest503} ms`);
    let recorded = 0;
    for (let i = 0; i < 100 && recorded < before + redirects; i++) {
      recorded = await db.scanEvent.count({ where: { dynamicCodeId: id } });
      if (recorded < before + redirects) await sleep(200);
    }
    assert.equal(recorded - before, redirects, "every redirect recorded");

    // A page's action through nginx, which listens on a port other than 80: the Host the
    // instance sees keeps the port, so the action's Origin matches it.
    const action = await fetch(`${nginx.base}/api/trpc/account.forgotPassword`, { method: "POST", headers: { "content-type": "application/json", origin: nginx.base }, body: JSON.stringify({ email: "nobody@example.com" }) });
    const text = await action.text();
    assert.ok(!/Cross-site/.test(text), text);
    assert.equal(action.status, 200, text);
  });
});
