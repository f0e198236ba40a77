// What the bench's sections share: the options, the closing table's figures, load with wrk,
// the baseline server and a fresh database with accounts.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { freePort, freshDatabase, startServer, type RunningServer } from "../harness";

export { residentMemory } from "../harness";

// Servers outside the embedded database need both secrets (they refuse to start without).
process.env.NEXTAUTH_SECRET ??= "bench-only-session-secret-not-for-production";
process.env.VISITOR_HASH_SECRET ??= "bench-only-visitor-secret-not-for-production";
// No SMTP server in the bench: any mail goes to the outbox.
process.env.MAIL_OUTBOX ??= "1";

export const args = process.argv.slice(2);
export const option = (name: string, fallback: number) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
export const duration = option("--duration", 10);
export const connections = option("--connections", 50);
export const rounds = option("--rounds", 5);
// The cluster section (scripts/bench/cluster.ts): its own length and fixed rate, 5 minutes at 2,000 scans a second by default.
export const clusterSeconds = option("--cluster-seconds", 300);
export const clusterRate = option("--cluster-rate", 2000);
// --cluster-outage S: PostgreSQL refused for S seconds a third into the load (the catch-up's figure).
export const clusterOutage = option("--cluster-outage", 0);
export const DESTINATION = "https://example.com/landing";
export const USER_AGENT =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

/**
 * One figure for the closing table: each section runs in a process of its own and prints it
 * as a tagged line, which the parent collects.
 */
export function figure(name: string, value: string, goal: string, met: boolean) {
  console.log(`BENCH-FIGURE ${JSON.stringify({ name, value, goal, met })}`);
}

/** The production server needs a build; the bench makes one only when there is none. */
export function buildOnce() {
  if (!existsSync(".next/BUILD_ID"))
    spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: "inherit" });
}

export const backendName = (url: string) => (url.startsWith("file:") ? "SQLite" : "PostgreSQL");

export type Load = {
  requestsPerSecond: number;
  p99: number;
  p50: number;
  redirects: number;
  other: number;
  seconds: number;
};

/**
 * Throughput and latency with wrk (C, one thread: it leaves more of two cores to the server than
 * autocannon; ../shared/notes/load-generators.md). Every answer the short link gives that is not
 * an error is a 302, so wrk's "Non-2xx or 3xx responses" and socket errors are the others.
 * `script`: a wrk Lua script that makes the requests (the API's keys in turn).
 */
export async function load(
  url: string,
  userAgent = USER_AGENT,
  seconds = duration,
  script?: string,
  /** More request headers (`Host: go.example.com`, a custom domain's). */
  headers: string[] = [],
): Promise<Load> {
  const args = [
    "-t1",
    `-c${connections}`,
    `-d${seconds}s`,
    "--latency",
    "-H",
    `User-Agent: ${userAgent}`,
    ...headers.flatMap((header) => ["-H", header]),
    ...(script ? ["-s", script] : []),
    url,
  ];
  const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  const code = await new Promise((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`wrk exited with ${code}: ${out}`);
  const number = (pattern: RegExp) => Number(out.match(pattern)?.[1] ?? 0);
  const ms = (percent: string) => {
    const [, value, unit] = out.match(new RegExp(`^\\s+${percent}%\\s+([\\d.]+)(us|ms|s)`, "m")) ?? [];
    return value === undefined ? NaN : Number(value) * (unit === "us" ? 0.001 : unit === "s" ? 1000 : 1);
  };
  const total = number(/(\d+) requests in/);
  const other =
    number(/Non-2xx or 3xx responses: (\d+)/) +
    (out
      .match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/)
      ?.slice(1)
      .reduce((sum, n) => sum + Number(n), 0) ?? 0);
  return {
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p99: Math.round(ms("99") * 10) / 10,
    p50: Math.round(ms("50") * 10) / 10,
    redirects: total - number(/Non-2xx or 3xx responses: (\d+)/),
    other,
    seconds: number(/requests in ([\d.]+)s/),
  };
}

/** Rounds of one load as one: mean req/s, the worst p50 and p99, all answers summed. */
export function combined(rounds: Load[]): Load {
  const mean = (pick: (l: Load) => number) => rounds.reduce((sum, l) => sum + pick(l), 0) / rounds.length;
  return {
    requestsPerSecond: mean((l) => l.requestsPerSecond),
    p99: Math.max(...rounds.map((l) => l.p99)),
    p50: Math.max(...rounds.map((l) => l.p50)),
    redirects: rounds.reduce((sum, l) => sum + l.redirects, 0),
    other: rounds.reduce((sum, l) => sum + l.other, 0),
    seconds: rounds.reduce((sum, l) => sum + l.seconds, 0),
  };
}

/** One load measured again and again: `run(seconds)` measures it once. */
export type Measured = { name: string; run: (seconds: number) => Promise<Load> };
export type Series = { name: string; load: Load; warmUp: Load; ratios: number[] };

/**
 * `rounds` alternating rounds, so that a drift of the machine's speed falls on all alike: in
 * each the floor, then every measured load in turn; before them a warm-up of 2 s each, not
 * counted (the JIT had not compiled the paths in the first round). Returns the floor and every
 * load combined over the rounds, with each round's ratio to that round's floor.
 */
export async function alternate(floor: Measured, measured: Measured[]) {
  const warmUps: Load[] = [];
  for (const m of [floor, ...measured]) warmUps.push(await m.run(2));
  const floors: Load[] = [];
  const loads = measured.map(() => [] as Load[]);
  for (let round = 1; round <= rounds; round++) {
    floors.push(await floor.run(duration));
    for (const [i, m] of measured.entries()) loads[i].push(await m.run(duration));
    const ratios = measured.map((m, i) => `${m.name} ${ratioOf(loads[i][round - 1], floors[round - 1]).toFixed(2)}`);
    console.log(
      `round ${round}: ${floor.name} ${floors[round - 1].requestsPerSecond.toFixed(0)} req/s; ${ratios.join(", ")}`,
    );
  }
  const series: Series[] = measured.map((m, i) => ({
    name: m.name,
    load: combined(loads[i]),
    warmUp: warmUps[i + 1],
    ratios: loads[i].map((l, round) => ratioOf(l, floors[round])),
  }));
  return { floor: combined(floors), series };
}

/** A load's rate as a share of the floor's. */
export const ratioOf = (l: Load, floor: Load) => l.requestsPerSecond / floor.requestsPerSecond;

/** A row of the section's printout: req/s, p50, p99 and the answers that were not what was asked. */
export const loadRow = (name: string, l: Load) =>
  `${name.padEnd(44)}${l.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${String(l.p50).padStart(4)} ms   p99 ${String(l.p99).padStart(4)} ms   other ${l.other}`;

/**
 * Issue 41: the instances to measure. Users run the default (pages on), and on Node 20 the first
 * page Next rendered turned promise hooks on for the whole process (its AsyncLocalStorage), so
 * the default is measured before any page and after one, beside `SERVE_PAGES=0` (Next never
 * loaded). `SERVE_PAGES: undefined` keeps a setting of the caller's environment out of the defaults.
 */
export const INSTANCES = [
  { name: "SERVE_PAGES=0", servePages: "0", renderPage: false },
  { name: "default, before any page", servePages: undefined, renderPage: false },
  { name: "default, after a page", servePages: undefined, renderPage: true },
] as const;
/** The instance issue 41's goals are about: what the README's first command starts, once it has served a page. */
export const GOAL_INSTANCE = INSTANCES[2].name;

/**
 * The three instances on one database, each in a process of its own (`env`: the section's
 * settings); the last has answered GET /login with a 200 before it returns.
 */
export async function startInstances(env: Record<string, string | undefined>) {
  const servers: { name: string; server: RunningServer }[] = [];
  try {
    for (const instance of INSTANCES) {
      const server = await startServer({ ...env, SERVE_PAGES: instance.servePages });
      servers.push({ name: instance.name, server });
      if (!instance.renderPage) continue;
      const page = await fetch(`${server.base}/login`);
      await page.arrayBuffer();
      if (page.status !== 200) throw new Error(`GET /login answered ${page.status}`);
    }
  } catch (error) {
    await Promise.all(servers.map((s) => s.server.stop()));
    throw error;
  }
  return { servers, stop: () => Promise.all(servers.map((s) => s.server.stop())) };
}

/**
 * The closing table's figures of one load on the three instances: each one's ratio to the floor
 * (with its rounds' range) and its p99. The goals (ratio ≥ `goal`, p99 < 10 ms, no other
 * answers) are the default instance's after a page; the others are shown beside it.
 */
export function instanceFigures(what: string, backend: string, floor: Load, series: Series[], goal: number) {
  for (const s of series) {
    const ratio = ratioOf(s.load, floor);
    const range = `${Math.min(...s.ratios).toFixed(2)}–${Math.max(...s.ratios).toFixed(2)}`;
    const other = s.load.other === 0 ? "" : `, ${s.load.other} other answers`;
    const goals = s.name === GOAL_INSTANCE;
    figure(
      `${what} ÷ bare, ${s.name} (${backend})`,
      `${ratio.toFixed(2)} (${s.load.requestsPerSecond.toFixed(0)} ÷ ${floor.requestsPerSecond.toFixed(0)}; rounds ${range}${other})`,
      goals ? `≥ ${goal.toFixed(2)}` : "—",
      ratio >= goal && s.load.other === 0,
    );
    figure(`${what} p99, ${s.name} (${backend})`, `${s.load.p99} ms`, goals ? "< 10 ms" : "—", s.load.p99 < 10);
  }
}

/** The baseline: the same 302 from memory, in a process of its own like the real server. */
export async function bareServer(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const source = `require("node:http").createServer((req, res) => {
    res.writeHead(302, { Location: ${JSON.stringify(DESTINATION)}, "Cache-Control": "private, max-age=0" }).end();
  }).listen(${port}, "127.0.0.1", () => console.log("ready"));`;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  return { url: `http://127.0.0.1:${port}/q/bench`, stop: () => child.kill() };
}

/**
 * A fresh database on the backend DATABASE_URL names, and a way to make Pro accounts' personal
 * libraries with one dynamic code each. The database client is made on import, so the server's
 * modules are imported after DATABASE_URL is set (and after any other setting the caller needs).
 */
export async function benchDatabase() {
  buildOnce();
  const database = await freshDatabase("bench");
  process.env.DATABASE_URL = database.url;
  const { db } = await import("../../server/platform/db");
  const { createUser } = await import("../../server/accounts/users");
  const { createDynamicCodes } = await import("../../server/library/dynamicCodes");
  const withCode = async (
    email: string,
    name: string,
    rules: Partial<Parameters<typeof createDynamicCodes>[1][number]> = {},
  ) => {
    const user = await createUser({ email, password: "bench-password-1", name: "Bench" }, "pro", { verified: true });
    const actor = { userId: user.id, library: { kind: "personal" as const, userId: user.id } };
    const [record] = await createDynamicCodes(actor, [{ destination_url: DESTINATION, name, ...rules }]);
    return { actor, record };
  };
  return { database, db, withCode };
}

/**
 * A team library of 50 dynamic codes on a fresh database, with `keyCount` writers' business keys
 * (10 requests a second each: enough keys that no key's limit is reached). The database client
 * is made on import, so the server's modules are imported after DATABASE_URL is set.
 */
export async function teamLibrary(keyCount: number) {
  buildOnce();
  const database = await freshDatabase("bench");
  process.env.DATABASE_URL = database.url;
  const { db } = await import("../../server/platform/db");
  const { createUser } = await import("../../server/accounts/users");
  const { createTeam } = await import("../../server/teams/teams");
  const { generateKey } = await import("../../server/keys/apiKeys");
  const { createDynamicCodes } = await import("../../server/library/dynamicCodes");
  const { timeOrderedId } = await import("../../server/platform/ids");
  const owner = await createUser(
    { email: "bench-owner@example.com", password: "bench-password-1", name: "Bench" },
    "business",
    { verified: true },
  );
  const team = await createTeam(owner.id, "Bench team");
  await createDynamicCodes(
    { userId: owner.id, library: { kind: "team", teamId: team.id }, role: "admin" },
    Array.from({ length: 50 }, (_, i) => ({ destination_url: `https://example.com/${i}`, name: `Code ${i}` })),
    // Published, so that their short links answer (the soak scans them).
    { statuses: Array.from({ length: 50 }, () => "active" as const) },
  );
  // Writers inserted directly (one password hash for all: log-ins are not measured).
  const writers = Array.from({ length: keyCount }, (_, i) => ({
    id: timeOrderedId("usr"),
    email: `bench-writer-${i}@example.com`,
    name: `W${i}`,
    passwordHash: owner.passwordHash,
    tier: "free",
    emailVerifiedAt: new Date(),
  }));
  await db.user.createMany({ data: writers });
  await db.membership.createMany({
    data: writers.map((w) => ({ id: timeOrderedId("mem"), teamId: team.id, userId: w.id, role: "writer" })),
  });
  const keys: string[] = [];
  for (const w of writers) keys.push((await generateKey(w.id, "business", team.id)).key);
  const codes = await db.dynamicCode.findMany({ where: { teamId: team.id }, select: { code: true } });
  return { database, db, keys, codes: codes.map((c) => c.code) };
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Peak resident memory of a process so far, in bytes (Linux). */
export const peakMemory = (pid: number) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
