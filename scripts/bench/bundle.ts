// The bundle (docs/BUNDLE.md) each way on the run's backend: a library of 1,000,000 scans
// (`--bundle-scans N`) exported from one server and imported into another on a new database,
// in rows (lines) per second, with the server's resident memory while it streams out and while
// it takes the body in, checks it and writes it (the import's thread included: same process).
// A library of a tenth the scans is moved first: memory that does not grow with the bundle's
// size grows by about as much for both.
import { spawnSync } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Agent } from "undici";
import { freshDatabase, residentWhile, startServer } from "../harness";
import { backendName, buildOnce, figure, option, peakMemory } from "./common";

const SCANS = option("--bundle-scans", 1_000_000);
const ENV = { TRUST_PROXY_COUNTRY_HEADER: "cf-ipcountry", MAIL_OUTBOX: "1" };
const WAYS = ["export", "import"] as const;
/** The import answers when it has written everything: minutes for a million scans on a loaded machine. */
const PATIENT = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
type Way = (typeof WAYS)[number];
type Move = { backend: string; scans: number; bytes: number; rates: Record<Way, number>; growth: Record<Way, number> };

function fill(url: string, args: string[]): string {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/bundle-library.ts", ...args], {
    env: { ...process.env, ...ENV, DATABASE_URL: url },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (run.status !== 0) throw new Error("filling the bench library failed");
  return (JSON.parse(run.stdout.trim().split("\n").pop()!) as { key: string }).key;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const count = (n: number) => n.toLocaleString("en");

/** A library of `scans` scans exported from one server to a file, and that file imported into another. */
async function move(scans: number): Promise<Move> {
  const [source, target] = [await freshDatabase("bench"), await freshDatabase("bench")];
  const backend = backendName(source.url);
  const folder = mkdtempSync(path.join(tmpdir(), "qr-bench-bundle-"));
  const file = path.join(folder, "bundle.ndjson");
  try {
    console.log(`\nBundle on ${backend}: filling a library of ${count(scans)} scans…`);
    const keys = [fill(source.url, [String(scans)]), fill(target.url, ["0", "--empty"])];
    const lines = scans + 6; // the bundle line, 2 static and 3 dynamic codes
    const moved: Move = { backend, scans, bytes: 0, rates: { export: 0, import: 0 }, growth: { export: 0, import: 0 } };

    const out = await startServer({ ...ENV, DATABASE_URL: source.url });
    try {
      const m = await residentWhile(out.child.pid!, async () => {
        const res = await fetch(`${out.base}/v1/bundle`, { headers: { "x-api-key": keys[0] } });
        if (res.status !== 200) throw new Error(`export answered ${res.status}`);
        await pipeline(res.body as unknown as AsyncIterable<Uint8Array>, createWriteStream(file));
      });
      moved.bytes = statSync(file).size;
      moved.rates.export = lines / m.seconds;
      moved.growth.export = m.growth;
      console.log(
        `export: ${count(lines)} lines (${mb(moved.bytes)}) in ${m.seconds.toFixed(1)} s; ` +
          `server ${mb(m.before)} before, peak ${mb(m.peak)} (lifetime peak ${mb(peakMemory(out.child.pid!))})`,
      );
    } finally {
      await out.stop();
    }

    const into = await startServer({ ...ENV, DATABASE_URL: target.url });
    try {
      const m = await residentWhile(into.child.pid!, async () => {
        const res = await fetch(`${into.base}/v1/bundle`, {
          method: "POST",
          headers: { "x-api-key": keys[1], "content-type": "application/x-ndjson" },
          body: Readable.toWeb(createReadStream(file)) as ReadableStream,
          duplex: "half",
          dispatcher: PATIENT,
        } as RequestInit);
        const text = await res.text();
        if (res.status !== 200) throw new Error(`import answered ${res.status}: ${text}`);
        return text;
      });
      moved.rates.import = lines / m.seconds;
      moved.growth.import = m.growth;
      console.log(
        `import: ${m.result} in ${m.seconds.toFixed(1)} s; server ${mb(m.before)} before, peak ${mb(m.peak)} ` +
          `(its thread included; lifetime peak ${mb(peakMemory(into.child.pid!))})`,
      );
    } finally {
      await into.stop();
    }
    return moved;
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await source.cleanup();
    await target.cleanup();
  }
}

export async function bundle() {
  buildOnce();
  const small = await move(Math.round(SCANS / 10));
  const large = await move(SCANS);
  const { backend } = large;
  for (const way of WAYS) {
    const goal = way === "export" ? 100_000 : 20_000;
    figure(
      `bundle ${way}, ${count(SCANS)} scans (${backend})`,
      `${count(Math.round(large.rates[way]))} rows/s`,
      `≥ ${count(goal)} rows/s`,
      large.rates[way] >= goal,
    );
    // The import holds a thread of its own while it runs (a module graph and a database client: ~70 MB).
    const limit = way === "export" ? 64 : 160;
    figure(
      `bundle ${way} memory growth, ${count(SCANS)} scans (${backend})`,
      `+${mb(large.growth[way])}`,
      `< ${limit} MB`,
      large.growth[way] < limit * 2 ** 20,
    );
    // Flat: ten times the scans add less than a tenth of the added bundle's bytes (a buffer of
    // the scans, even as their compact text, would add all of them).
    const added = large.growth[way] - small.growth[way];
    const bound = (large.bytes - small.bytes) / 10;
    figure(
      `bundle ${way} memory growth, ${count(small.scans)} → ${count(SCANS)} scans (${backend})`,
      `+${mb(small.growth[way])} → +${mb(large.growth[way])}`,
      `added < ${mb(bound)} (a tenth of the added ${mb(large.bytes - small.bytes)})`,
      added < bound,
    );
  }
}
