// Soak (issue 41): the server's memory under 10 minutes of mixed load, on the instance users run
// (pages on, after a page was rendered). Goal: flat, no growth over the last 5 minutes.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startServer } from "../harness";
import { backendName, figure, load, option, residentMemory, teamLibrary, USER_AGENT } from "./common";

/** --soak-seconds S: the length of the load (600 by default: the goal's 10 minutes). */
const SOAK_SECONDS = option("--soak-seconds", 600);
const SAMPLE_SECONDS = 10;
/** Growth over the last half that still counts as flat: the heap's ordinary sawtooth. */
const FLAT_MB = 16;

/**
 * One wrk (one thread) for the whole length, whose Lua script mixes, out of every 20 requests:
 * 14 recorded scans of the team's 50 codes (`/q/<code>`, a phone's agent), 4 list pages and 2
 * single reads on `/v1` with 300 keys in turn (10 requests a second each: none reaches its limit); a page (`/login`, then `/`) is fetched every
 * sample. The server's resident memory is read every 10 s. It rises and falls by 100 MB and more
 * as the heap fills and is collected, so what is compared is its floor, the lowest sample (what
 * stays after a collection): flat when the floor of the last half is at most 16 MB above that of
 * minutes 2.5 to 5, by which time the heap has reached its working size. The peaks are shown.
 */
export async function soak() {
  const { database, db, keys, codes } = await teamLibrary(300);
  const server = await startServer({ DATABASE_URL: database.url, RATE_LIMIT_BUSINESS_DAILY_QUOTA: "100000000" });
  const script = path.join(mkdtempSync(path.join(tmpdir(), "qr-bench-soak-")), "mixed.lua");
  writeFileSync(
    script,
    `local keys = {${keys.map((k) => JSON.stringify(k)).join(",")}}
local codes = {${codes.map((c) => JSON.stringify(c)).join(",")}}
local n, k = 0, 0
request = function()
  n = n + 1
  local turn = n % 20
  local code = codes[n % #codes + 1]
  if turn < 14 then return wrk.format("GET", "/q/" .. code) end
  k = k + 1
  local key = keys[k % #keys + 1]
  if turn < 18 then return wrk.format("GET", "/v1/dynqrcodes?limit=50", { ["X-API-Key"] = key }) end
  return wrk.format("GET", "/v1/dynqrcodes/" .. code, { ["X-API-Key"] = key })
end
`,
  );
  const backend = backendName(database.url);
  const pid = server.child.pid!;
  const samples: { second: number; mb: number }[] = [];
  try {
    const page = async (p: string) => {
      const r = await fetch(`${server.base}${p}`);
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`GET ${p} answered ${r.status}`);
    };
    await page("/login");
    for (const [p, headers, status] of [
      [`/q/${codes[0]}`, {}, 302],
      ["/v1/dynqrcodes?limit=50", { "x-api-key": keys[0] }, 200],
    ] as const) {
      const r = await fetch(`${server.base}${p}`, { headers, redirect: "manual" });
      await r.arrayBuffer();
      if (r.status !== status) throw new Error(`GET ${p} answered ${r.status}`);
    }
    console.log(`\nSoak: ${SOAK_SECONDS} s of mixed load on the default instance after a page, on ${backend}`);
    const started = Date.now();
    const sampler = setInterval(() => {
      void page(samples.length % 2 ? "/" : "/login").catch((e) => console.error(String(e)));
      const sample = { second: Math.round((Date.now() - started) / 1000), mb: residentMemory(pid) / 2 ** 20 };
      samples.push(sample);
      console.log(`  ${String(sample.second).padStart(4)} s  ${sample.mb.toFixed(0)} MB`);
    }, SAMPLE_SECONDS * 1000);
    const mixed = await load(`${server.base}/q/${codes[0]}`, USER_AGENT, SOAK_SECONDS, script);
    clearInterval(sampler);
    const half = SOAK_SECONDS / 2;
    const between = (from: number, to: number) =>
      samples.filter((s) => s.second > from && s.second <= to).map((s) => s.mb);
    const [settled, last] = [between(half / 2, half), between(half, SOAK_SECONDS + SAMPLE_SECONDS)];
    const growth = Math.min(...last) - Math.min(...settled);
    console.log(
      `mixed load: ${mixed.requestsPerSecond.toFixed(0)} req/s, p50 ${mixed.p50} ms, p99 ${mixed.p99} ms, ${mixed.other} errors`,
    );
    figure(
      `server memory, last ${(half / 60).toFixed(1)} min of ${(SOAK_SECONDS / 60).toFixed(1)} min mixed load, default instance after a page (${backend})`,
      `${growth >= 0 ? "+" : ""}${growth.toFixed(0)} MB (floor ${Math.min(...settled).toFixed(0)} → ${Math.min(...last).toFixed(0)} MB, peaks ${Math.max(...settled).toFixed(0)} and ${Math.max(...last).toFixed(0)} MB; ${mixed.requestsPerSecond.toFixed(0)} req/s, ${mixed.other} errors)`,
      `< +${FLAT_MB} MB`,
      growth < FLAT_MB,
    );
  } finally {
    await server.stop();
    await db.$disconnect();
    await database.cleanup();
  }
}
