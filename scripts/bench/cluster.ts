// npm run bench -- --only cluster (issue 38): the production recipe's writers. Three instances
// on PostgreSQL + a Redis of their own, each with its own spool, behind nginx from
// deploy/nginx/qr-records.conf; recorded /q at a fixed rate (autocannon's overallRate: wrk has no
// rate, ../shared/notes/load-generators.md) spread over 1,000 codes. Measured: the backlog
// (qr_scan_buffer_scans summed over the instances) over time and at the load's end, PostgreSQL's
// deadlocks in the bench database, the time until every answered scan is written after the load,
// each instance's resident memory, and the scans each instance wrote per second.
// Goals: backlog < 5 s of traffic at the end, 0 deadlocks, all written within 10 s, RSS < 400 MB.
// tests/instances/cluster-writers.postgres.test.ts runs a short, slower version of the same in CI.
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import pg from "pg";
import { pgConfigFromUrl } from "../../server/platform/database-url";
import { freshDatabase, startRedis, startServer, type RunningServer } from "../harness";
import { startNginx, type Nginx } from "../nginx";
import { faultRelay } from "../../tests/fault-relay";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

export type ClusterRun = {
  seconds: number;
  rate: number;
  /** Seconds since the load began, and the backlog summed over the instances. */
  backlog: { at: number; scans: number }[];
  /** The backlog when the load ended, and its peak. */
  endBacklog: number;
  peakBacklog: number;
  deadlocks: number;
  /** From the load's end until every answered scan was a row (null: not within 120 s). */
  catchUpMs: number | null;
  /** Each instance's peak resident memory, MB. */
  peakRssMb: number[];
  /** Scans each instance wrote, per second of load and catch-up. */
  writtenPerSecond: number[];
  /** Redirects the instances answered during the load (their metrics), and the rows stored for them. */
  answered: number;
  stored: number;
  /** Answers other than 302, and requests that timed out. */
  other: number;
  /** With an outage: the backlog's peak, and how long after PostgreSQL came back it fell to one second of traffic (null: not before the load's end). */
  outage?: { seconds: number; peakBacklog: number; catchUpMs: number | null };
};

/** A sample of `name` (summed over its label values) from an instance's /metrics. */
async function metricSum(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let sum = 0;
  for (const line of text.split("\n"))
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  return sum;
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** `count` active dynamic codes of a new account, made with the domain's own functions (DATABASE_URL set before). */
export async function makeCodes(count: number): Promise<{ codes: string[]; ids: string[] }> {
  const { createUser } = await import("../../server/accounts/users");
  const { createDynamicCodes } = await import("../../server/library/dynamicCodes");
  const user = await createUser(
    { email: `cluster-${Date.now()}-${process.pid}@example.com`, password: "cluster-bench-1", name: "Cluster" },
    "business",
    { verified: true },
  );
  const actor = { userId: user.id, library: { kind: "personal" as const, userId: user.id } };
  const codes: string[] = [];
  // Batches of 20: a batch is written a few rows per event-loop turn in one transaction, which a loaded machine must finish within Prisma's 5 s.
  for (let i = 0; i < count; i += 20) {
    const items = Array.from({ length: Math.min(20, count - i) }, (_, j) => ({
      destination_url: `https://example.com/c${i + j}`,
      name: `c${i + j}`,
    }));
    // A batch is all or nothing: tried again when a loaded machine's database cut it.
    for (let attempt = 1; ; attempt++) {
      try {
        codes.push(...(await createDynamicCodes(actor, items)).map((record) => record.code));
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  }
  const { db } = await import("../../server/platform/db");
  const ids = (await db.dynamicCode.findMany({ where: { code: { in: codes } }, select: { id: true } })).map(
    (row) => row.id,
  );
  return { codes, ids };
}

/**
 * Three instances behind nginx on `databaseUrl`, `rate` recorded /q a second over `codes` for
 * `seconds`. With `outageSeconds`, the instances reach PostgreSQL through a relay that refuses
 * for that long from a third of the load on (as a stopped server does).
 */
export async function clusterLoad(
  databaseUrl: string,
  codes: { codes: string[]; ids: string[] },
  seconds: number,
  rate: number,
  log = (line: string) => console.log(line),
  outageSeconds = 0,
): Promise<ClusterRun> {
  const sql = new pg.Client(pgConfigFromUrl(databaseUrl));
  await sql.connect();
  const redis = await startRedis();
  const relay = outageSeconds > 0 ? await faultRelay(databaseUrl) : null;
  const servers: RunningServer[] = [];
  let nginx: Nginx | undefined;
  const stored = async () =>
    Number(
      (await sql.query(`SELECT count(*) AS n FROM "ScanEvent" WHERE "dynamicCodeId" = ANY($1)`, [codes.ids])).rows[0].n,
    );
  const deadlocks = async () => {
    await sql.query("SELECT pg_stat_clear_snapshot()");
    return Number(
      (await sql.query("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")).rows[0].deadlocks,
    );
  };
  const backlogNow = async () =>
    (await Promise.all(servers.map((s) => metricSum(s.base, "qr_scan_buffer_scans")))).reduce((a, b) => a + b, 0);
  try {
    // One after another: three starts at once on a loaded two-core machine outlast the harness's
    // minute. Each on a port free at its start (one chosen earlier may be taken meanwhile).
    for (let i = 0; i < 3; i++)
      servers.push(
        await startServer({ DATABASE_URL: relay?.url ?? databaseUrl, REDIS_URL: redis.url, TRUST_PROXY: "1" }),
      );
    nginx = await startNginx(servers.map((s) => s.port));
    const base = nginx.base;
    // Each instance knows every code before the load (the first scans would otherwise all ask the database).
    for (const server of servers)
      for (const code of codes.codes)
        await (
          await fetch(`${server.base}/q/${code}`, { redirect: "manual", headers: { "user-agent": "bench-warmup-bot" } })
        ).arrayBuffer();
    const storedBefore = await stored();
    const deadlocksBefore = await deadlocks();
    const writtenBefore = await Promise.all(servers.map((s) => metricSum(s.base, "qr_scans_recorded_total")));
    // Answered as the instances count them: autocannon drops the answers still in flight when its time is up.
    const redirects = async () =>
      (
        await Promise.all(servers.map((s) => metricSum(s.base, 'qr_short_link_requests_total{outcome="redirect"}')))
      ).reduce((a, b) => a + b, 0);
    const redirectsBefore = await redirects();
    const peakRssMb = servers.map((s) => rssMb(s.child.pid!));
    const backlog: ClusterRun["backlog"] = [];
    const started = Date.now();
    let next = 0;
    const running = autocannon({
      url: base,
      connections: 50,
      overallRate: rate,
      duration: seconds,
      headers: { "user-agent": IPHONE },
      requests: [
        { setupRequest: (request) => ({ ...request, path: `/q/${codes.codes[next++ % codes.codes.length]}` }) },
      ],
    });
    let loading = true;
    const outageAt = Math.round(seconds / 3);
    let restoredAt: number | null = null;
    let outage: ClusterRun["outage"];
    const sampling = (async () => {
      while (loading) {
        await new Promise((r) => setTimeout(r, 1000));
        const at = Math.round((Date.now() - started) / 1000);
        if (relay && at >= outageAt && !outage) {
          await relay.set("refuse");
          outage = { seconds: outageSeconds, peakBacklog: 0, catchUpMs: null };
          log(`  ${at} s: PostgreSQL refused for ${outageSeconds} s`);
        }
        if (relay && outage && restoredAt === null && at >= outageAt + outageSeconds) {
          await relay.set("relay");
          restoredAt = Date.now();
          log(`  ${at} s: PostgreSQL back`);
        }
        const scans = await backlogNow();
        backlog.push({ at, scans });
        if (outage && outage.catchUpMs === null) {
          outage.peakBacklog = Math.max(outage.peakBacklog, scans);
          if (restoredAt !== null && scans <= rate) outage.catchUpMs = Date.now() - restoredAt;
        }
        servers.forEach((s, i) => (peakRssMb[i] = Math.max(peakRssMb[i], rssMb(s.child.pid!))));
        if (backlog.length % Math.max(1, Math.round(seconds / 10)) === 0)
          log(`  ${backlog.at(-1)!.at} s: backlog ${scans}, RSS ${peakRssMb.map((m) => m.toFixed(0)).join("/")} MB`);
      }
    })();
    const result = await running;
    loading = false;
    await sampling;
    const ended = Date.now();
    const endBacklog = await backlogNow();
    const answered = (await redirects()) - redirectsBefore;
    let catchUpMs: number | null = null;
    while (Date.now() - ended < 120_000) {
      if ((await backlogNow()) === 0 && (await stored()) - storedBefore >= answered) {
        catchUpMs = Date.now() - ended;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    servers.forEach((s, i) => (peakRssMb[i] = Math.max(peakRssMb[i], rssMb(s.child.pid!))));
    const spent = (Date.now() - started) / 1000;
    const written = await Promise.all(servers.map((s) => metricSum(s.base, "qr_scans_recorded_total")));
    await new Promise((r) => setTimeout(r, 1000)); // the statistics collector's flush
    return {
      seconds,
      rate,
      backlog,
      endBacklog,
      peakBacklog: Math.max(endBacklog, ...backlog.map((b) => b.scans)),
      deadlocks: (await deadlocks()) - deadlocksBefore,
      catchUpMs,
      peakRssMb,
      writtenPerSecond: written.map((w, i) => (w - writtenBefore[i]) / spent),
      answered,
      stored: (await stored()) - storedBefore,
      // autocannon counts a timeout among its errors too; its other errors are the requests it cut when its time was up.
      other: result.non2xx - result["3xx"] + result.timeouts,
      outage,
    };
  } finally {
    relay?.close();
    await nginx?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await redis.stop();
    await sql.end();
  }
}

const figure = (name: string, value: string, goal: string, met: boolean) =>
  console.log(`BENCH-FIGURE ${JSON.stringify({ name, value, goal, met })}`);

/** The bench section: PostgreSQL only (DATABASE_URL=postgresql://…), a fresh database. */
export async function cluster(seconds: number, rate: number, outageSeconds = 0): Promise<void> {
  if (!(process.env.DATABASE_URL ?? "").startsWith("postgres")) {
    console.log("\nCluster writers: PostgreSQL only (DATABASE_URL=postgresql://…).");
    return;
  }
  const database = await freshDatabase("bench");
  process.env.DATABASE_URL = database.url;
  try {
    const codes = await makeCodes(1000);
    const outage =
      outageSeconds > 0 ? `, PostgreSQL refused for ${outageSeconds} s from ${Math.round(seconds / 3)} s on` : "";
    console.log(
      `\nCluster writers: three instances on PostgreSQL + Redis behind nginx, ${rate} recorded /q a second over 1,000 codes for ${seconds} s${outage}`,
    );
    const run = await clusterLoad(database.url, codes, seconds, rate, undefined, outageSeconds);
    const series = run.backlog
      .filter((_, i) => i % Math.max(1, Math.round(run.backlog.length / 20)) === 0)
      .map((b) => `${b.at}s:${b.scans}`);
    console.log(`  backlog over time (summed): ${series.join(" ")}`);
    console.log(
      `  answered ${run.answered}, other answers ${run.other}, stored ${run.stored}; written per instance ${run.writtenPerSecond.map((w) => w.toFixed(0)).join(" / ")} scans/s`,
    );
    const bound = rate * 5;
    figure(
      "cluster: backlog at the load's end (summed)",
      `${run.endBacklog} (peak ${run.peakBacklog})`,
      `< ${bound}`,
      run.endBacklog < bound,
    );
    figure("cluster: PostgreSQL deadlocks during the run", String(run.deadlocks), "0", run.deadlocks === 0);
    figure(
      "cluster: every scan written after the load's end",
      run.catchUpMs === null ? "not within 120 s" : `${(run.catchUpMs / 1000).toFixed(1)} s`,
      "< 10 s",
      run.catchUpMs !== null && run.catchUpMs < 10_000,
    );
    figure(
      "cluster: peak resident memory per instance",
      `${run.peakRssMb.map((m) => m.toFixed(0)).join(" / ")} MB`,
      "< 400 MB",
      run.peakRssMb.every((m) => m < 400),
    );
    figure(
      "cluster: scans written per second (3 instances)",
      `${run.writtenPerSecond.reduce((a, b) => a + b, 0).toFixed(0)} (${run.writtenPerSecond.map((w) => w.toFixed(0)).join(" + ")})`,
      "—",
      true,
    );
    if (run.outage) {
      const { catchUpMs, peakBacklog } = run.outage;
      figure(
        `cluster: catch-up after ${outageSeconds} s without PostgreSQL (backlog back to 1 s of traffic)`,
        catchUpMs === null
          ? "not before the load's end"
          : `${(catchUpMs / 1000).toFixed(1)} s (backlog peak ${peakBacklog})`,
        "—",
        catchUpMs !== null,
      );
    }
    figure(
      "cluster: answered redirects stored",
      `${run.stored} of ${run.answered}`,
      "all",
      run.stored === run.answered && run.other === 0,
    );
  } finally {
    const { db } = await import("../../server/platform/db");
    await db.$disconnect();
    await database.cleanup();
  }
}
