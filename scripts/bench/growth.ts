import { startServer } from "../harness";
import {
  option,
  duration,
  rounds,
  DESTINATION,
  USER_AGENT,
  figure,
  backendName,
  load,
  bareServer,
  benchDatabase,
} from "./common";

/**
 * Flat under growth (issue 18): recorded /q (wrk, against the bare 302 in the same rounds) and
 * one code's analytics over a year (UTC and Asia/Kolkata), first with 100,000 scans stored,
 * then with --fill (default 10,000,000). The scans are made by SQL (generate_series on
 * PostgreSQL, a recursive CTE on SQLite) over the last year, each code's rows in time order
 * with 1,000 visitors (unique: the first of a visitor on its UTC day; 10 M scans give about
 * 3.7 M visitor-days, which the writer's unique check reads), and their rollups (daily,
 * quarter-hour, visitor-days) summed from them, so that the analytics count what is stored.
 * On PostgreSQL the past months' partitions are created first, as a database that lived
 * through them has them. Figures: each phase's median of the rounds, and later ÷ earlier.
 */
export async function growth() {
  const { database, db, withCode } = await benchDatabase();
  const backend = backendName(database.url);
  const { actor, record } = await withCode("growth@example.com", "Recorded");
  const { createDynamicCodes } = await import("../../server/library/dynamicCodes");
  const { generateKey } = await import("../../server/keys/apiKeys");
  const { ensureScanPartitions } = await import("../../server/scan/partitions");
  const { key } = await generateKey(actor.userId, "personal");
  const fillTotal = option("--fill", 10_000_000);
  const created = await createDynamicCodes(
    actor,
    Array.from({ length: 12 }, (_, i) => ({ destination_url: DESTINATION, name: i === 0 ? "Read" : `Filler ${i}` })),
  );
  const ids = await Promise.all(
    created.map(async (c) => (await db.dynamicCode.findFirstOrThrow({ where: { code: c.code } })).id),
  );
  const YEAR_MS = 365 * 86_400_000;
  const end = Date.now() - 3_600_000; // all before the hour the load records in
  const start = end - YEAR_MS;
  if (backend === "PostgreSQL")
    for (let m = 0; m <= 12; m++)
      await ensureScanPartitions(
        new Date(Date.UTC(new Date(start).getUTCFullYear(), new Date(start).getUTCMonth() + m, 1)),
      );

  const sql =
    backend === "PostgreSQL"
      ? await (async () => {
          const { default: pgModule } = await import("pg");
          const { pgConfigFromUrl } = await import("../../server/platform/database-url");
          const client = new pgModule.Client(pgConfigFromUrl(database.url));
          await client.connect();
          return { run: async (text: string) => void (await client.query(text)), close: () => client.end() };
        })()
      : await (async () => {
          const { default: Database } = await import("better-sqlite3");
          const { sqliteFileOf } = await import("../../server/platform/database-url");
          const file = new Database(sqliteFileOf(database.url), { timeout: 60_000 });
          return { run: async (text: string) => void file.exec(text), close: async () => file.close() };
        })();
  /** `count` scans of code number `c` spread over the year, their rollups and visitor-days. */
  const fill = async (c: number, count: number) => {
    const step = Math.floor(YEAR_MS / count);
    const V = 1_000;
    const postgres = backend === "PostgreSQL";
    const rows = postgres
      ? `SELECT n::bigint AS n, ${start}::bigint + n::bigint * ${step} AS ms FROM generate_series(0, ${count - 1}) AS n`
      : `WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ${count - 1}) SELECT n, ${start} + n * ${step} AS ms FROM s`;
    const dayOf = (ms: string) =>
      postgres
        ? `to_char(to_timestamp((${ms}) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`
        : `strftime('%Y-%m-%d', (${ms}) / 1000, 'unixepoch')`;
    const at = postgres
      ? `to_timestamp(ms / 1000.0) AT TIME ZONE 'UTC'`
      : `strftime('%Y-%m-%dT%H:%M:%S', ms / 1000, 'unixepoch') || '.' || printf('%03d', ms % 1000) || '+00:00'`;
    const pick = (list: string[], n: string) =>
      `CASE ${n} ${list.map((v, i) => `WHEN ${i} THEN '${v}'`).join(" ")} END`;
    const isUnique = `(n < ${V} OR (${start} + (n - ${V}) * ${step}) / 86400000 < ms / 86400000)`;
    await sql.run(`DROP TABLE IF EXISTS fill; CREATE TEMP TABLE fill AS SELECT n, ms, ${dayOf("ms")} AS day, ${postgres ? "(ms / 900000)::integer" : "ms / 900000"} AS quarter,
      ${pick(["US", "DE", "FR", "GB", "JP", "BR", "IN", "ZZ"], "n % 8")} AS country, ${pick(["mobile", "mobile", "desktop", "desktop"], "n % 4")} AS device,
      ${pick(["iOS", "Android", "Windows", "Mac OS"], "n % 4")} AS os, ${pick(["Mobile Safari", "Chrome", "Edge", "Firefox"], "n % 4")} AS browser,
      'visitor' || (n % ${V}) AS visitor, ${postgres ? isUnique : `CASE WHEN ${isUnique} THEN 1 ELSE 0 END`} AS uniq FROM (${rows}) AS g`);
    const code = `'${ids[c]}'`;
    await sql.run(`INSERT INTO "ScanEvent" ("id", "dynamicCodeId", "scannedAt", "day", "country", "device", "os", "browser", "visitorHash", "unique", "destinationUrl")
      SELECT 'scan_00' || ${postgres ? `lpad(${c}::text, 2, '0') || lpad(n::text, 9, '0')` : `printf('%02d%09d', ${c}, n)`}, ${code}, ${at}, day, country, device, os, browser, visitor, uniq, '${DESTINATION}' FROM fill`);
    const u = postgres ? `CASE WHEN uniq THEN 1 ELSE 0 END` : "uniq";
    for (const [table, bucket] of [
      ["ScanDaily", "day"],
      ["ScanQuarter", "quarter"],
    ])
      await sql.run(`INSERT INTO "${table}" ("dynamicCodeId", "${bucket}", "dimension", "value", "scans", "uniqueScans")
        ${["total", "country", "device", "os", "browser"].map((d) => `SELECT ${code}, ${bucket}, '${d}', ${d === "total" ? "''" : d}, count(*), sum(${u}) FROM fill GROUP BY ${bucket}${d === "total" ? "" : `, ${d}`}`).join(" UNION ALL ")}`);
    await sql.run(
      `INSERT INTO "ScanVisitorDay" ("dynamicCodeId", "day", "visitorHash") SELECT DISTINCT ${code}, day, visitor FROM fill; DROP TABLE fill; ANALYZE`,
    );
  };

  const server = await startServer({
    DATABASE_URL: database.url,
    VISITOR_HASH_SECRET: process.env.VISITOR_HASH_SECRET,
  });
  const bare = await bareServer();
  const from = new Date(start).toISOString().slice(0, 10);
  const to = new Date(end).toISOString().slice(0, 10);
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  /** The median time of 21 requests, paced under the key's 5 a second. */
  const timed = async (path: string, check: (body: { total_scans?: number }) => boolean) => {
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      const t = performance.now();
      const r = await fetch(`${server.base}${path}`, { headers: { "x-api-key": key } });
      const body = (await r.json()) as { total_scans?: number };
      times.push(performance.now() - t);
      if (r.status !== 200 || !check(body)) throw new Error(`${path} answered ${r.status}`);
      await new Promise((resolve) => setTimeout(resolve, 210));
    }
    return median(times);
  };
  const analyticsPath = (tz: string) =>
    `/v1/dynqrcodes/${created[0].code}/analytics?from=${from}&to=${to}${tz ? `&tz=${tz}` : ""}`;
  // A read's time over the baseline's (the gate, the key and one small query) in the same phase: a busy machine slows both.
  const read = async (tz: string) => {
    const baseline = await timed("/v1/dynqrcodes?limit=1", () => true);
    const ms = await timed(analyticsPath(tz), (body) => tz !== "" || body.total_scans === 50_000);
    return { ms, relative: ms / baseline };
  };
  const measure = async (label: string) => {
    await load(`${server.base}/q/${record.code}`, USER_AGENT, 2);
    const ratios: number[] = [];
    const rates: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const baseline = await load(bare.url);
      const recorded = await load(`${server.base}/q/${record.code}`);
      ratios.push(recorded.requestsPerSecond / baseline.requestsPerSecond);
      rates.push(recorded.requestsPerSecond);
      console.log(
        `${label}, round ${round}: /q recorded ${recorded.requestsPerSecond.toFixed(0)} req/s, bare ${baseline.requestsPerSecond.toFixed(0)}, ratio ${ratios.at(-1)!.toFixed(3)}`,
      );
    }
    const figures = {
      ratio: median(ratios),
      rate: median(rates),
      utc: await read(""),
      kolkata: await read("Asia/Kolkata"),
    };
    console.log(
      `${label}: /q recorded ÷ bare median ${figures.ratio.toFixed(3)} (${figures.rate.toFixed(0)} req/s); a year of one code's analytics p50 ` +
        `${figures.utc.ms.toFixed(1)} ms UTC (${figures.utc.relative.toFixed(2)} × the baseline read), ${figures.kolkata.ms.toFixed(1)} ms Asia/Kolkata (${figures.kolkata.relative.toFixed(2)} ×)`,
    );
    return figures;
  };
  try {
    console.log(`\nFlat under growth on ${backend}: ${rounds} rounds of ${duration} s per load`);
    let t = performance.now();
    await fill(0, 50_000);
    await fill(1, 50_000);
    console.log(`filled 100,000 scans in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const small = await measure("100,000 stored");
    t = performance.now();
    const rest = fillTotal - 100_000;
    for (let c = 2; c < 12; c++) await fill(c, Math.floor(rest / 10));
    const stored = await db.scanEvent.count();
    console.log(`filled to ${stored.toLocaleString("en")} scans in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const large = await measure(`${stored.toLocaleString("en")} stored`);
    const size = `${(stored / 1e6).toFixed(1)} M`;
    figure(
      `/q recorded ÷ bare, ${size} ÷ 100 k stored (${backend})`,
      `${(large.ratio / small.ratio).toFixed(3)} (${large.ratio.toFixed(3)} ÷ ${small.ratio.toFixed(3)})`,
      "≥ 0.90",
      large.ratio / small.ratio >= 0.9,
    );
    for (const [name, zone] of [
      ["UTC", "utc"],
      ["Asia/Kolkata", "kolkata"],
    ] as const)
      figure(
        `a year's analytics p50 in ${name}, ${size} ÷ 100 k stored (${backend})`,
        `${(large[zone].relative / small[zone].relative).toFixed(2)} of the baseline read (${large[zone].ms.toFixed(1)} ÷ ${small[zone].ms.toFixed(1)} ms)`,
        "≈ 1",
        large[zone].relative / small[zone].relative <= 1.2,
      );
  } finally {
    bare.stop();
    await server.stop();
    await sql.close();
    await db.$disconnect();
    await database.cleanup();
  }
}
