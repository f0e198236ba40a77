// npm run bench: figures, each against a baseline measured in the same run (never a test).
//   tsx scripts/bench.ts [--duration S] [--connections N] [--only shortlink|ratelimit]
// Short link: /q/<code> on the production server against a bare node:http server that answers
// the same 302 from memory, both loaded by autocannon; then scans recorded against redirects
// answered. Uses a fresh database on the backend DATABASE_URL names (SQLite by default).
// Rate limiter: checks per second and the latency of one check, in process and on a Redis of
// the bench's own, against the baseline of a Redis PING on the same connection.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import autocannon from "autocannon";
import { freePort, freshDatabase, startRedis, startServer } from "./harness";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const duration = option("--duration", 10);
const connections = option("--connections", 50);
const DESTINATION = "https://example.com/landing";
const USER_AGENT = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

type Load = { requestsPerSecond: number; p99: number; p50: number; redirects: number; other: number };

async function load(url: string, userAgent = USER_AGENT): Promise<Load> {
  const result = await autocannon({ url, connections, duration, headers: { "user-agent": userAgent } });
  const redirects = result.statusCodeStats?.["302"]?.count ?? 0;
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    p50: result.latency.p50,
    redirects,
    other: result.requests.total - redirects + result.errors,
  };
}

/** The baseline: the same 302 from memory, in a process of its own like the real server. */
async function bareServer(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const source = `require("node:http").createServer((req, res) => {
    res.writeHead(302, { Location: ${JSON.stringify(DESTINATION)}, "Cache-Control": "private, max-age=0" }).end();
  }).listen(${port}, "127.0.0.1", () => console.log("ready"));`;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  return { url: `http://127.0.0.1:${port}/q/bench`, stop: () => child.kill() };
}

async function main() {
  if (!existsSync(".next/BUILD_ID")) spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: "inherit" });
  const database = await freshDatabase("bench");
  process.env.DATABASE_URL = database.url;
  process.env.VISITOR_HASH_SECRET ??= "bench-only-visitor-secret-not-for-production";
  // Imported after DATABASE_URL is set: the client is made on import.
  const { db } = await import("../server/db");
  const { createUser } = await import("../server/domain/users");
  const { createDynamicCodes } = await import("../server/domain/dynamicCodes");
  const owner = await createUser({ email: "bench@example.com", password: "bench-password-1", name: "Bench" }, "pro");
  const [record] = await createDynamicCodes({ userId: owner.id, library: { kind: "personal", userId: owner.id } }, [{ destination_url: DESTINATION, name: "Bench" }]);

  const server = await startServer({ DATABASE_URL: database.url, VISITOR_HASH_SECRET: process.env.VISITOR_HASH_SECRET });
  const bare = await bareServer();
  try {
    console.log(`\nShort link: ${connections} connections, ${duration} s each, on ${database.url.startsWith("file:") ? "SQLite" : "PostgreSQL"}`);
    const baseline = await load(bare.url);
    // A bot's scan is redirected but not recorded: the cost of the redirect alone.
    const unrecorded = await load(`${server.base}/q/${record.code}`, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)");
    const shortLink = await load(`${server.base}/q/${record.code}`);
    // Every answered redirect must be recorded: the buffer is written within 200 ms.
    const { id } = await db.dynamicCode.findUniqueOrThrow({ where: { code: record.code } });
    let recorded = 0;
    for (let i = 0; i < 50 && (recorded < shortLink.redirects || i < 3); i++) {
      await new Promise((r) => setTimeout(r, 200));
      recorded = await db.scanEvent.count({ where: { dynamicCodeId: id } });
    }
    const row = (name: string, l: Load) =>
      `${name.padEnd(28)}${l.requestsPerSecond.toFixed(0).padStart(10)} req/s   p50 ${String(l.p50).padStart(3)} ms   p99 ${String(l.p99).padStart(3)} ms`;
    console.log(row("bare node:http 302", baseline));
    console.log(row("/q/<code>, bot (not recorded)", unrecorded));
    console.log(row("/q/<code> (recorded)", shortLink));
    const ratio = (l: Load) => (l.requestsPerSecond / baseline.requestsPerSecond).toFixed(2);
    console.log(`ratio /q ÷ bare: ${ratio(shortLink)} recorded, ${ratio(unrecorded)} not recorded (goal ≥ 0.50); p99 ${shortLink.p99} ms (goal < 20)`);
    // autocannon counts the answers that arrive before its clock stops; up to one request per
    // connection is still in flight then, answered and recorded, but not counted.
    const inFlight = recorded - shortLink.redirects;
    const verdict = inFlight >= 0 && inFlight <= connections ? "every redirect recorded" : "MISMATCH";
    console.log(`redirects answered ${shortLink.redirects} (+${inFlight} in flight at the end), scans recorded ${recorded}: ${verdict}; other answers ${shortLink.other}`);
  } finally {
    bare.stop();
    await server.stop();
    await db.$disconnect();
    await database.cleanup();
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function rateLimiter() {
  const redisServer = await startRedis();
  process.env.REDIS_URL = redisServer.url;
  const { take, takeInProcess, keyRule } = await import("../server/rate-limit");
  const { redis, whenReady } = await import("../server/redis");
  const client = redis()!;
  await whenReady(client, 5000);
  // Many keys, so that most checks pass and none is an outlier.
  const rule = keyRule("business");
  const keys = Array.from({ length: 1000 }, (_, i) => `bench:${i}`);
  const N = 200_000;
  const t = performance.now();
  for (let i = 0; i < N; i++) takeInProcess(keys[i % keys.length], rule);
  const memoryPerSecond = N / ((performance.now() - t) / 1000);

  const timed = async (f: (i: number) => Promise<unknown>, n: number) => {
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      await f(i);
      samples.push(performance.now() - start);
    }
    return samples.sort((x, y) => x - y);
  };
  const concurrent = async (f: (i: number) => Promise<unknown>, n: number, width = 50) => {
    let next = 0;
    const start = performance.now();
    await Promise.all(Array.from({ length: width }, async () => {
      while (next < n) await f(next++);
    }));
    return n / ((performance.now() - start) / 1000);
  };
  const ping = await timed(() => client.ping(), 5000);
  const check = await timed((i) => take(keys[i % keys.length], rule), 5000);
  const pingRate = await concurrent(() => client.ping(), 50_000);
  const checkRate = await concurrent((i) => take(keys[i % keys.length], rule), 50_000);
  const ms = (v: number) => `${(v * 1000).toFixed(0)} µs`;
  console.log(`\nRate limiter (token bucket + daily quota, one atomic step)`);
  console.log(`in process: ${Math.round(memoryPerSecond).toLocaleString("en")} checks/s (one thread)`);
  console.log(`Redis PING (baseline): ${Math.round(pingRate).toLocaleString("en")}/s at 50 in flight; one at a time p50 ${ms(percentile(ping, 50))}, p99 ${ms(percentile(ping, 99))}`);
  console.log(`Redis check (Lua):     ${Math.round(checkRate).toLocaleString("en")}/s at 50 in flight (${(checkRate / pingRate).toFixed(2)} of PING); one at a time p50 ${ms(percentile(check, 50))}, p99 ${ms(percentile(check, 99))}`);
  client.disconnect();
  await redisServer.stop();
}

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : "";
if (!only || only === "shortlink") await main();
if (!only || only === "ratelimit") await rateLimiter();
process.exit(0);
