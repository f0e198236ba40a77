// The bundle (docs/BUNDLE.md) each way on the run's backend: a library of 1,000,000 scans
// (`--bundle-scans N`) exported from one server and imported into another on a new database,
// in rows (lines) per second, with the server's resident memory while it streams out and while
// it takes the body in, checks it and writes it (the import's thread included: same process).
import { spawnSync } from "node:child_process";
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { freshDatabase, startServer } from "../harness";
import { backendName, buildOnce, figure, option, peakMemory, residentMemory } from "./common";

const SCANS = option("--bundle-scans", 1_000_000);
const ENV = { TRUST_PROXY_COUNTRY_HEADER: "cf-ipcountry", MAIL_OUTBOX: "1" };

function fill(url: string, args: string[]): string {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/bundle-library.ts", ...args], {
    env: { ...process.env, ...ENV, DATABASE_URL: url },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (run.status !== 0) throw new Error("filling the bench library failed");
  return (JSON.parse(run.stdout.trim().split("\n").pop()!) as { key: string }).key;
}

/** `work` timed, with the server's resident memory sampled every 20 ms meanwhile. */
async function measured<T>(pid: number, work: () => Promise<T>) {
  const before = residentMemory(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, residentMemory(pid))), 20);
  const start = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - start) / 1000, before, peak };
  } finally {
    clearInterval(sampler);
  }
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

export async function bundle() {
  buildOnce();
  const [source, target] = [await freshDatabase("bench"), await freshDatabase("bench")];
  const backend = backendName(source.url);
  const folder = mkdtempSync(path.join(tmpdir(), "qr-bench-bundle-"));
  const file = path.join(folder, "bundle.ndjson");
  try {
    console.log(`\nBundle on ${backend}: filling a library of ${SCANS.toLocaleString("en")} scans…`);
    const keys = [fill(source.url, [String(SCANS)]), fill(target.url, ["0", "--empty"])];
    const lines = SCANS + 6; // the bundle line, 2 static and 3 dynamic codes
    const rates: Record<string, number> = {};
    const growth: Record<string, number> = {};

    const out = await startServer({ ...ENV, DATABASE_URL: source.url });
    try {
      const m = await measured(out.child.pid!, async () => {
        const res = await fetch(`${out.base}/v1/bundle`, { headers: { "x-api-key": keys[0] } });
        if (res.status !== 200) throw new Error(`export answered ${res.status}`);
        await pipeline(res.body as unknown as AsyncIterable<Uint8Array>, createWriteStream(file));
      });
      rates.export = lines / m.seconds;
      growth.export = m.peak - m.before;
      console.log(
        `export: ${lines.toLocaleString("en")} lines (${mb(statSync(file).size)}) in ${m.seconds.toFixed(1)} s; ` +
          `server ${mb(m.before)} before, peak ${mb(m.peak)} (lifetime peak ${mb(peakMemory(out.child.pid!))})`,
      );
    } finally {
      await out.stop();
    }

    const into = await startServer({ ...ENV, DATABASE_URL: target.url });
    try {
      const m = await measured(into.child.pid!, async () => {
        const res = await fetch(`${into.base}/v1/bundle`, {
          method: "POST",
          headers: { "x-api-key": keys[1], "content-type": "application/x-ndjson" },
          body: Readable.toWeb(createReadStream(file)) as ReadableStream,
          duplex: "half",
        } as RequestInit);
        const text = await res.text();
        if (res.status !== 200) throw new Error(`import answered ${res.status}: ${text}`);
        return text;
      });
      rates.import = lines / m.seconds;
      growth.import = m.peak - m.before;
      console.log(
        `import: ${m.result} in ${m.seconds.toFixed(1)} s; server ${mb(m.before)} before, peak ${mb(m.peak)} ` +
          `(its thread included; lifetime peak ${mb(peakMemory(into.child.pid!))})`,
      );
    } finally {
      await into.stop();
    }

    for (const way of ["export", "import"] as const) {
      const goal = way === "export" ? 100_000 : 20_000;
      figure(
        `bundle ${way}, ${SCANS.toLocaleString("en")} scans (${backend})`,
        `${Math.round(rates[way]).toLocaleString("en")} rows/s`,
        `≥ ${goal.toLocaleString("en")} rows/s`,
        rates[way] >= goal,
      );
      // The import holds a thread of its own while it runs (a module graph and a database client: ~70 MB).
      const limit = way === "export" ? 64 : 160;
      figure(
        `bundle ${way} memory growth (${backend})`,
        `+${mb(growth[way])}`,
        `< ${limit} MB`,
        growth[way] < limit * 2 ** 20,
      );
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await source.cleanup();
    await target.cleanup();
  }
}
