// npm run bench -- --only hostile (issue 37): the p99 of /q at a steady 200 scans a second,
// alone and then while two callers send hostile requests back to back (scripts/bench/hostile-bodies.ts:
// the largest body each route of both edges accepts, filled with what costs the most to check),
// in the same run on one server. Goal: the p99 with hostile requests in flight under 50 ms.
// The scans come from a process of their own: the senders' work in this one (a 4 MiB body is
// encoded for each request) would otherwise delay the scans' timing, not the server's answers.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { freshDatabase, startServer } from "../harness";
import type { HostileRequest } from "./hostile-bodies";

const PASSWORD = "bench-password-1";
const SCANS_PER_SECOND = 200;
const CALLERS = 8;

const AUTOCANNON = createRequire(import.meta.url).resolve("autocannon/autocannon.js");

type ScanFigures = { p50: number; p99: number; count: number; errors: number };

/** /q at SCANS_PER_SECOND for `seconds`, from autocannon in a process of its own. */
function scansAt(url: string, seconds: number): Promise<ScanFigures> {
  const args = [
    AUTOCANNON,
    "-c",
    "10",
    "-R",
    String(SCANS_PER_SECOND),
    "-d",
    String(seconds),
    "-H",
    "user-agent=Mozilla/5.0 (bench)",
    "-j",
    url,
  ];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const result = JSON.parse(output.trim().split("\n").pop()!);
      resolve({
        p50: result.latency.p50,
        p99: result.latency.p99,
        count: result.requests.total,
        errors: result.errors + result.non2xx - result["3xx"],
      });
    }),
  );
}

const figure = (name: string, value: string, goal: string, met: boolean) =>
  console.log(`BENCH-FIGURE ${JSON.stringify({ name, value, goal, met })}`);

/** The longest a /q waited, scans sent one after another, while `work` was in flight: its hold on the server's event loop. */
async function holdOf(work: () => Promise<number>, scanned: string): Promise<number> {
  let done = false;
  const working = work().finally(() => (done = true));
  let longest = 0;
  while (!done) {
    const start = performance.now();
    await (await fetch(scanned, { redirect: "manual" })).arrayBuffer();
    longest = Math.max(longest, performance.now() - start);
  }
  await working;
  return longest;
}

export async function hostile(seconds: number): Promise<void> {
  const database = await freshDatabase("bench");
  process.env.DATABASE_URL = database.url;
  const { db } = await import("../../server/platform/db");
  const { createUser } = await import("../../server/accounts/users");
  const { generateKey } = await import("../../server/keys/apiKeys");
  const { createDynamicCodes } = await import("../../server/library/dynamicCodes");
  const { logIn } = await import("../../tests/helpers");
  const { hostileBodies } = await import("./hostile-bodies");
  const server = await startServer({ DATABASE_URL: database.url, RATE_LIMIT_PERSONAL_DAILY_QUOTA: "1000000" });
  try {
    // Callers of their own (each key's rate limit leaves room for the hostile load), each with a code, a key and a session.
    const callers: { key: string; cookie: string; requests: HostileRequest[]; code: string }[] = [];
    for (let i = 0; i < CALLERS; i++) {
      const user = await createUser(
        { email: `hostile-bench-${i}@example.com`, password: PASSWORD, name: `Hostile ${i}` },
        "pro",
        { verified: true },
      );
      const actor = { userId: user.id, library: { kind: "personal" as const, userId: user.id } };
      const [record] = await createDynamicCodes(actor, [
        { destination_url: "https://example.com/landing", name: "scanned" },
      ]);
      const { key } = await generateKey(user.id, "personal");
      const page = await logIn(user.email, PASSWORD, server.base);
      callers.push({ key, cookie: page.cookie(), requests: hostileBodies(record.code), code: record.code });
    }
    const scanned = `${server.base}/q/${callers[0].code}`;
    const scans = () => scansAt(scanned, seconds);
    // Each body encoded once: encoding 4 MiB for every request would hold this process's loop, and the scans of `holdOf` with it.
    const encoded = new WeakMap<HostileRequest, Uint8Array<ArrayBuffer>>();
    const bytesOf = (request: HostileRequest) =>
      encoded.get(request) ?? encoded.set(request, new TextEncoder().encode(request.body)).get(request)!;
    for (const caller of callers) caller.requests.forEach(bytesOf);
    const send = async (request: HostileRequest, caller: (typeof callers)[number]): Promise<number> => {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        ...(request.edge === "v1" ? { "x-api-key": caller.key } : { cookie: caller.cookie, origin: server.base }),
      };
      const res = await fetch(server.base + request.path, { method: request.method, headers, body: bytesOf(request) });
      await res.arrayBuffer();
      return res.status;
    };
    console.log(
      `\nEach hostile request alone: the longest a /q waited while it was in flight (scans sent one after another), median of 3`,
    );
    for (const [i, { name }] of callers[0].requests.entries()) {
      const holds: number[] = [];
      for (let run = 2; run < 5; run++)
        holds.push(await holdOf(() => send(callers[run].requests[i], callers[run]), scanned));
      console.log(
        `  ${name.padEnd(60)} ${holds
          .sort((a, b) => a - b)[1]
          .toFixed(1)
          .padStart(6)} ms`,
      );
    }
    console.log(
      `\nHostile requests: /q at ${SCANS_PER_SECOND}/s for ${seconds} s alone, then while 2 callers send the ${callers[0].requests.length} hostile requests back to back, on ${database.url.startsWith("file:") ? "SQLite" : "PostgreSQL"}`,
    );
    await scans(); // warm-up, not counted
    const alone = await scans();
    let sending = true;
    let sent = 0;
    const statuses = new Map<string, number>();
    const senders = [0, 1].map(async (k) => {
      for (let n = k; sending; n += 2) {
        const caller = callers[n % CALLERS];
        const request = caller.requests[Math.floor(n / CALLERS) % caller.requests.length];
        const status = await send(request, caller);
        sent++;
        statuses.set(String(status), (statuses.get(String(status)) ?? 0) + 1);
      }
    });
    const busy = await scans();
    sending = false;
    await Promise.all(senders);
    const row = (name: string, l: ScanFigures) =>
      `${name.padEnd(48)}p50 ${String(l.p50).padStart(4)} ms   p99 ${String(l.p99).padStart(4)} ms   (${l.count} scans, ${l.errors} not 302)`;
    console.log(row("/q alone", alone));
    console.log(row("/q while hostile requests are in flight", busy));
    console.log(
      `hostile requests answered meanwhile: ${sent} (${[...statuses].map(([s, n]) => `${s}×${n}`).join(" ")})`,
    );
    figure("/q p99 alone (hostile section's baseline)", `${alone.p99} ms`, "—", true);
    figure(
      "/q p99 while hostile requests are in flight",
      `${busy.p99} ms (${sent} hostile requests)`,
      "< 50 ms",
      busy.p99 < 50,
    );
  } finally {
    await server.stop();
    await db.$disconnect();
    await database.cleanup();
  }
}
