// API: authenticated GET /v1/dynqrcodes?limit=50 on the three instances of issue 41 against a
// bare node:http server with the same JSON.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../harness";
import {
  duration,
  connections,
  rounds,
  USER_AGENT,
  backendName,
  Load,
  load,
  alternate,
  startInstances,
  teamLibrary,
  instanceFigures,
  loadRow,
} from "./common";

/**
 * Authenticated GET /v1/dynqrcodes (a team library of 50 records) through the whole gate, with
 * 3,000 business keys in turn so that no key's limit is reached (10 a second each: 1,000 keys
 * were too few once the server passed 10,000 req/s, and the cheaper 429s inflated the figure),
 * on the three instances of issue 41 (SERVE_PAGES=0; the default before any page; the default
 * after one page), against a bare node:http server answering the same JSON from memory, all
 * loaded by wrk (one thread) in alternating rounds. Goals (issue 41, the default instance after
 * a page): at least 0.45 of the floor's req/s on SQLite, 0.40 on PostgreSQL + Redis, counting
 * only the 200s; p99 < 10 ms.
 */
export async function api() {
  const { database, db, keys } = await teamLibrary(3000);

  const instances = await startInstances({ DATABASE_URL: database.url, RATE_LIMIT_BUSINESS_DAILY_QUOTA: "1000000" });
  const PATH = "/v1/dynqrcodes?limit=50";
  let body = "";
  for (const { name, server } of instances.servers) {
    const sample = await fetch(`${server.base}${PATH}`, { headers: { "x-api-key": keys[0] } });
    body = await sample.text();
    if (sample.status !== 200 || (JSON.parse(body) as { dynqrcodes: unknown[] }).dynqrcodes.length !== 50) {
      await instances.stop();
      throw new Error(`unexpected answer ${sample.status} from ${name}`);
    }
  }
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
  const measure = async (target: string, seconds: number): Promise<Load> => {
    const l = await load(target, USER_AGENT, seconds, script);
    return { ...l, requestsPerSecond: l.redirects / l.seconds };
  };
  try {
    const backend = backendName(database.url);
    console.log(`
API: GET ${PATH} (50 records), ${keys.length} keys in turn, wrk -t1 -c${connections}, ${rounds} alternating rounds of ${duration} s, on ${backend}`);
    const { floor, series } = await alternate(
      { name: "bare", run: (seconds) => measure(`http://127.0.0.1:${port}${PATH}`, seconds) },
      instances.servers.map(({ name, server }) => ({
        name,
        run: (seconds: number) => measure(`${server.base}${PATH}`, seconds),
      })),
    );
    console.log(loadRow("bare node:http, same JSON", floor));
    for (const s of series) console.log(loadRow(`GET ${PATH}, ${s.name}`, s.load));
    instanceFigures(`GET ${PATH}`, backend, floor, series, backend === "SQLite" ? 0.45 : 0.4);
  } finally {
    bare.kill();
    await instances.stop();
    await db.$disconnect();
    await database.cleanup();
  }
}
