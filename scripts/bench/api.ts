// API: authenticated GET /v1/dynqrcodes against a bare node:http server with the same JSON.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, freshDatabase, startServer } from "../harness";
import {
  duration,
  connections,
  rounds,
  USER_AGENT,
  figure,
  buildOnce,
  backendName,
  Load,
  load,
  combined,
} from "./common";

/**
 * Authenticated GET /v1/dynqrcodes (a team library of 50 records) through the whole gate, with
 * 3,000 business keys in turn so that no key's limit is reached (10 a second each: 1,000 keys
 * were too few once the server passed 10,000 req/s, and the cheaper 429s inflated the figure),
 * against a bare node:http server answering the same JSON from memory, both loaded by wrk
 * (one thread) in alternating rounds. Goal (issue 18): at least 0.3 of its req/s, counting only
 * the 200s.
 */
export async function api() {
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
  );
  // Writers inserted directly (one password hash for all: log-ins are not measured).
  const writers = Array.from({ length: 3000 }, (_, i) => ({
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

  const server = await startServer({ DATABASE_URL: database.url, RATE_LIMIT_BUSINESS_DAILY_QUOTA: "1000000" });
  const url = `${server.base}/v1/dynqrcodes`;
  const sample = await fetch(url, { headers: { "x-api-key": keys[0] } });
  const body = await sample.text();
  if (sample.status !== 200 || (JSON.parse(body) as { dynqrcodes: unknown[] }).dynqrcodes.length !== 50)
    throw new Error(`unexpected answer ${sample.status}`);
  const port = await freePort();
  const source = `const body = ${JSON.stringify(body)};
  require("node:http").createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "X-RateLimit-Limit": "10000", "X-RateLimit-Remaining": "9999", "X-RateLimit-Reset": "1790000000" }).end(body);
  }).listen(${port}, "127.0.0.1", () => console.log("ready"));`;
  const bare = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => bare.stdout.once("data", resolve));
  // wrk, one thread, like the short link; a Lua script hands out the keys in turn.
  const script = path.join(mkdtempSync(path.join(tmpdir(), "qr-bench-api-")), "keys.lua");
  writeFileSync(
    script,
    `local keys = {${keys.map((k) => JSON.stringify(k)).join(",")}}
local i = 0
request = function()
  i = i % #keys + 1
  return wrk.format("GET", nil, { ["X-API-Key"] = keys[i] })
end
`,
  );
  // Only the 200s count: the rate of the answers that are not errors.
  const measure = async (target: string): Promise<Load> => {
    const l = await load(target, USER_AGENT, duration, script);
    return { ...l, requestsPerSecond: l.redirects / l.seconds };
  };
  try {
    console.log(`
API: GET /v1/dynqrcodes (50 records), ${keys.length} keys in turn, wrk -t1 -c${connections}, ${rounds} alternating rounds of ${duration} s, on ${backendName(database.url)}`);
    await measure(`http://127.0.0.1:${port}/v1/dynqrcodes`); // warm-up, not counted
    await measure(url);
    const [baselines, reals]: Load[][] = [[], []];
    for (let round = 1; round <= rounds; round++) {
      baselines.push(await measure(`http://127.0.0.1:${port}/v1/dynqrcodes`));
      reals.push(await measure(url));
      console.log(
        `round ${round}: bare ${baselines.at(-1)!.requestsPerSecond.toFixed(0)} req/s, API ${reals.at(-1)!.requestsPerSecond.toFixed(0)} req/s, ratio ${(reals.at(-1)!.requestsPerSecond / baselines.at(-1)!.requestsPerSecond).toFixed(2)}`,
      );
    }
    const [baseline, real] = [combined(baselines), combined(reals)];
    const row = (name: string, l: Load) =>
      `${name.padEnd(28)}${l.requestsPerSecond.toFixed(0).padStart(10)} req/s   p50 ${String(l.p50).padStart(3)} ms   p99 ${String(l.p99).padStart(3)} ms   non-200 ${l.other}`;
    console.log(row("bare node:http, same JSON", baseline));
    console.log(row("GET /v1/dynqrcodes", real));
    const ratio = real.requestsPerSecond / baseline.requestsPerSecond;
    console.log(`ratio API ÷ bare: ${ratio.toFixed(2)} (goal ≥ 0.30)`);
    const backend = backendName(database.url);
    figure(
      `GET /v1/dynqrcodes ÷ bare (${backend})`,
      `${ratio.toFixed(2)} (${real.requestsPerSecond.toFixed(0)} ÷ ${baseline.requestsPerSecond.toFixed(0)} req/s, ${real.other} non-200)`,
      "≥ 0.30",
      ratio >= 0.3 && real.other === 0,
    );
  } finally {
    bare.kill();
    await server.stop();
    await db.$disconnect();
    await database.cleanup();
  }
}
