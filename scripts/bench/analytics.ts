// Analytics: per-code reports over 10k, 100k and 1M scans, the summary over 10k codes, and
// the scan export of 1M rows (rows per second, the server's memory while it streams).
import { freshDatabase, startServer } from "../harness";
import { DESTINATION, figure, backendName, percentile, peakMemory, residentMemory } from "./common";

export async function analytics() {
  const database = await freshDatabase("bench");
  process.env.DATABASE_URL = database.url;
  process.env.TRUST_PROXY_COUNTRY_HEADER = "cf-ipcountry";
  const { db } = await import("../../server/platform/db");
  const { createUser } = await import("../../server/accounts/users");
  const { generateKey } = await import("../../server/keys/apiKeys");
  const { createDynamicCodes } = await import("../../server/library/dynamicCodes");
  const { newScan } = await import("../../server/scan/rows");
  const { writeScans } = await import("../../server/scan/write");
  const { timeOrderedId } = await import("../../server/platform/ids");
  const backend = backendName(database.url);
  const owner = await createUser(
    { email: "analytics-bench@example.com", password: "bench-password-1", name: "Bench" },
    "pro",
    { verified: true },
  );
  const { key } = await generateKey(owner.id, "personal");
  const actor = { userId: owner.id, library: { kind: "personal" as const, userId: owner.id } };
  const agents = [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0",
  ];
  const countries = ["US", "DE", "FR", "GB", "JP", "BR", "IN", "ZZ"];
  const YEAR_MS = 365 * 86_400_000;
  const now = Date.now();

  // Scan events through the real batch writer (rollups included), spread over the last year.
  console.log(`\nAnalytics on ${backend}: seeding 10k, 100k and 1M scan events on three codes…`);
  const sizes = [10_000, 100_000, 1_000_000];
  const codes: string[] = [];
  let seedSeconds = 0;
  for (const size of sizes) {
    const [record] = await createDynamicCodes(actor, [{ destination_url: DESTINATION, name: `Bench ${size}` }]);
    codes.push(record.code);
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code: record.code } });
    const start = performance.now();
    for (let done = 0; done < size; done += 5000) {
      const batch = Array.from({ length: Math.min(5000, size - done) }, (_, i) => {
        const n = done + i;
        return newScan({
          dynamicCodeId: id,
          scannedAt: now - YEAR_MS + Math.floor((n / size) * YEAR_MS),
          destinationUrl: DESTINATION,
          userAgent: agents[n % agents.length],
          address: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${(n % 3000) & 255}`,
          countryHeader: countries[n % countries.length],
        });
      });
      await writeScans(batch);
    }
    seedSeconds += (performance.now() - start) / 1000;
  }
  console.log(
    `seeded ${sizes.reduce((a, b) => a + b, 0).toLocaleString("en")} scans through the batch writer in ${seedSeconds.toFixed(1)} s`,
  );
  // What autovacuum (PostgreSQL) does after a bulk load: without statistics the planner takes
  // the export's keyset query for a tiny one and sorts the code's rows for every page.
  await db.$executeRawUnsafe("ANALYZE");

  // 10,000 codes for the summary, each with a day of rollups (written directly: only their count matters).
  const manyCodes = Array.from({ length: 10_000 }, (_, i) => ({
    id: timeOrderedId("dyn"),
    code: `S${String(i).padStart(7, "0")}`,
    userId: owner.id,
    createdById: owner.id,
    name: `Summary ${i}`,
    destinationUrl: DESTINATION,
    status: "active",
  }));
  for (let i = 0; i < manyCodes.length; i += 1000) {
    await db.dynamicCode.createMany({ data: manyCodes.slice(i, i + 1000) });
    await db.scanDaily.createMany({
      data: manyCodes.slice(i, i + 1000).map((c, j) => ({
        dynamicCodeId: c.id,
        day: new Date(now - (j % 300) * 86_400_000).toISOString().slice(0, 10),
        dimension: "total",
        value: "",
        scans: j + 1,
        uniqueScans: 1,
      })),
    });
  }

  const server = await startServer({
    DATABASE_URL: database.url,
    VISITOR_HASH_SECRET: process.env.VISITOR_HASH_SECRET,
  });
  try {
    const from = new Date(now - YEAR_MS).toISOString().slice(0, 10);
    const to = new Date(now).toISOString().slice(0, 10);
    const get = async (path: string) => {
      const start = performance.now();
      const r = await fetch(`${server.base}${path}`, { headers: { "x-api-key": key } });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
      return performance.now() - start;
    };
    // Paced under the key's token bucket (5 per second).
    const p50 = async (path: string, samples = 20) => {
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        times.push(await get(path));
        await new Promise((r) => setTimeout(r, 210));
      }
      return percentile(
        times.sort((a, b) => a - b),
        50,
      );
    };
    const baseline = await p50("/v1/dynqrcodes?limit=1");
    console.log(`baseline GET /v1/dynqrcodes?limit=1: p50 ${baseline.toFixed(1)} ms`);
    for (const [i, size] of sizes.entries()) {
      const t = await p50(`/v1/dynqrcodes/${codes[i]}/analytics?from=${from}&to=${to}`);
      console.log(
        `per-code analytics, ${size.toLocaleString("en").padStart(9)} scans, 366 days: p50 ${t.toFixed(1)} ms (goal < 20, flat)`,
      );
      figure(
        `per-code analytics p50, ${size.toLocaleString("en")} scans (${backend})`,
        `${t.toFixed(1)} ms`,
        "< 20 ms",
        t < 20,
      );
    }
    // In a half-hour zone (contract: "Analytics in a time zone"): days summed from 15-minute rollups.
    for (const [i, size] of sizes.entries()) {
      const t = await p50(`/v1/dynqrcodes/${codes[i]}/analytics?from=${from}&to=${to}&tz=Asia/Kolkata`);
      console.log(
        `per-code analytics in Asia/Kolkata, ${size.toLocaleString("en").padStart(9)} scans, 366 days: p50 ${t.toFixed(1)} ms (goal < 20, flat)`,
      );
      figure(
        `per-code analytics p50 in Asia/Kolkata, ${size.toLocaleString("en")} scans (${backend})`,
        `${t.toFixed(1)} ms`,
        "< 20 ms",
        t < 20,
      );
    }
    const zoned = await p50(`/v1/dynqrcodes/analytics?from=${from}&to=${to}&tz=Asia/Kolkata`, 10);
    console.log(
      `summary in Asia/Kolkata over ${(manyCodes.length + codes.length).toLocaleString("en")} codes: p50 ${zoned.toFixed(1)} ms (goal < 100)`,
    );
    figure(
      `analytics summary p50 in Asia/Kolkata, ${(manyCodes.length + codes.length).toLocaleString("en")} codes (${backend})`,
      `${zoned.toFixed(1)} ms`,
      "< 100 ms",
      zoned < 100,
    );
    const summary = await p50(`/v1/dynqrcodes/analytics?from=${from}&to=${to}`, 10);
    console.log(
      `summary over ${(manyCodes.length + codes.length).toLocaleString("en")} codes: p50 ${summary.toFixed(1)} ms (goal < 100)`,
    );
    figure(
      `analytics summary p50, ${(manyCodes.length + codes.length).toLocaleString("en")} codes (${backend})`,
      `${summary.toFixed(1)} ms`,
      "< 100 ms",
      summary < 100,
    );

    // The scan export of 1M rows: rows per second, and the server's memory while it streams.
    const pid = server.child.pid!;
    const before = residentMemory(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentMemory(pid))), 20);
    const start = performance.now();
    const r = await fetch(`${server.base}/v1/dynqrcodes/${codes[2]}/analytics/export?from=${from}&to=${to}`, {
      headers: { "x-api-key": key },
    });
    let rows = -1; // the header
    const reader = r.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (let at = value.indexOf(10); at !== -1; at = value.indexOf(10, at + 1)) rows++;
    }
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    console.log(
      `scan export: ${rows.toLocaleString("en")} rows in ${seconds.toFixed(1)} s = ${Math.round(rows / seconds).toLocaleString("en")} rows/s (goal ≥ 200,000); ` +
        `server memory ${(before / 2 ** 20).toFixed(0)} MB before, peak ${(peak / 2 ** 20).toFixed(0)} MB while streaming (+${((peak - before) / 2 ** 20).toFixed(0)} MB, goal < 64; lifetime peak ${(peakMemory(pid) / 2 ** 20).toFixed(0)} MB)`,
    );
    figure(
      `scan export (${backend})`,
      `${Math.round(rows / seconds).toLocaleString("en")} rows/s`,
      "≥ 200,000 rows/s",
      rows / seconds >= 200_000,
    );
    figure(
      `scan export memory growth (${backend})`,
      `+${((peak - before) / 2 ** 20).toFixed(0)} MB`,
      "< 64 MB",
      peak - before < 64 * 2 ** 20,
    );
  } finally {
    await server.stop();
    await db.$disconnect();
    await database.cleanup();
  }
}
