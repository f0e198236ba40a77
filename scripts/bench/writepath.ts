import { rounds, DESTINATION, figure, backendName, benchDatabase } from "./common";

/**
 * The PostgreSQL write path of the scan writer (issue 18): the statements of one 500-scan batch
 * (the events, their daily and quarter-hour rollups, as upserts) in one transaction, with the
 * rows sent three ways: one JSON parameter unpacked by jsonb_array_elements (the baseline: what
 * the writer did before), one array parameter per column unpacked by unnest, and the events by
 * COPY FROM STDIN (pg-copy-streams) with the rollups by unnest (COPY cannot upsert). Rounds
 * alternate the three on one database; each batch's scans are new, its rollups hit the same
 * keys as the batch before (as in production). Figures: median ms per batch and ratio.
 */
export async function writePath() {
  if (backendName(process.env.DATABASE_URL ?? "file:") !== "PostgreSQL") {
    console.log("\nWrite path: PostgreSQL only (SQLite binds each row: there is no parameter format to choose).");
    return;
  }
  const { database, db, withCode } = await benchDatabase();
  const { record } = await withCode("bench@example.com", "Bench");
  const { id: codeId } = await db.dynamicCode.findFirstOrThrow({ where: { code: record.code } });
  const { default: pgModule } = await import("pg");
  const { from: copyFrom } = await import("pg-copy-streams");
  const { pipeline } = await import("node:stream/promises");
  const { Readable } = await import("node:stream");
  const { insertEach, storedTime } = await import("../../server/platform/db");
  // One typed array parameter per column, unpacked by unnest (the writer keeps insertEach's JSON: see docs/BENCHMARKS.md).
  const insertColumns = (table: string, columns: readonly string[], casts: Record<string, string>, tail = "") =>
    `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) SELECT * FROM unnest(${columns.map((c, i) => `$${i + 1}::${casts[c] ?? "text"}[]`).join(", ")}) ${tail}`;
  const { timeOrderedId } = await import("../../server/platform/ids");
  const { pgConfigFromUrl } = await import("../../server/platform/database-url");
  const client = new pgModule.Client(pgConfigFromUrl(database.url));
  await client.connect();
  // The scan writer's own columns, in its order.
  const { SCAN_COLUMNS: SCAN } = await import("../../server/scan/rows");
  const ROLLUP = (bucket: string) => ["dynamicCodeId", bucket, "dimension", "value", "scans", "uniqueScans"];
  const upsert = (table: string, bucket: string) =>
    `ON CONFLICT ("dynamicCodeId", "dimension", "${bucket}", "value") DO UPDATE SET "scans" = "${table}"."scans" + excluded."scans", "uniqueScans" = "${table}"."uniqueScans" + excluded."uniqueScans"`;
  const scanCasts = { scannedAt: "timestamp(3)", unique: "boolean" };
  const statements = {
    json: {
      scans: insertEach("ScanEvent", SCAN, scanCasts).postgres,
      daily: insertEach(
        "ScanDaily",
        ROLLUP("day"),
        { scans: "integer", uniqueScans: "integer" },
        upsert("ScanDaily", "day"),
      ).postgres,
      quarter: insertEach(
        "ScanQuarter",
        ROLLUP("quarter"),
        { quarter: "integer", scans: "integer", uniqueScans: "integer" },
        upsert("ScanQuarter", "quarter"),
      ).postgres,
    },
    unnest: {
      scans: insertColumns("ScanEvent", SCAN, scanCasts),
      daily: insertColumns(
        "ScanDaily",
        ROLLUP("day"),
        { scans: "integer", uniqueScans: "integer" },
        upsert("ScanDaily", "day"),
      ),
      quarter: insertColumns(
        "ScanQuarter",
        ROLLUP("quarter"),
        { quarter: "integer", scans: "integer", uniqueScans: "integer" },
        upsert("ScanQuarter", "quarter"),
      ),
    },
  };
  const DIMENSIONS = [
    ["country", ["US", "DE", "FR", "IN"]],
    ["device", ["mobile", "desktop"]],
    ["os", ["iOS", "Android", "Windows"]],
    ["browser", ["Safari", "Chrome"]],
  ] as const;
  /** A batch of 500 new scans of now, and its rollups. */
  const batch = () => {
    const at = Date.now();
    const scans = Array.from({ length: 500 }, (_, i) => [
      timeOrderedId("scan"),
      codeId,
      storedTime(at + i),
      new Date(at).toISOString().slice(0, 10),
      DIMENSIONS[0][1][i % 4],
      DIMENSIONS[1][1][i % 2],
      DIMENSIONS[2][1][i % 3],
      DIMENSIONS[3][1][i % 2],
      `visitor${i % 97}`,
      i % 97 === i,
      DESTINATION,
    ]);
    const rollups = (bucket: string | number) => [
      [codeId, bucket, "total", "", 500, 97],
      ...DIMENSIONS.flatMap(([dimension, values]) =>
        values.map((value) => [codeId, bucket, dimension, value, Math.round(500 / values.length), 10]),
      ),
    ];
    return {
      scans,
      daily: rollups(new Date(at).toISOString().slice(0, 10)),
      quarter: rollups(Math.floor(at / 900_000)),
    };
  };
  const columns = (rows: unknown[][]) => rows[0].map((_, c) => rows.map((row) => row[c]));
  const copyText = (rows: unknown[][]) =>
    rows
      .map((row) =>
        row
          .map((v) =>
            v === true
              ? "t"
              : v === false
                ? "f"
                : String(v).replace(
                    /[\\\t\n\r]/g,
                    (ch) => `\\${ch === "\t" ? "t" : ch === "\n" ? "n" : ch === "\r" ? "r" : "\\"}`,
                  ),
          )
          .join("\t"),
      )
      .join("\n") + "\n";
  const ways: Record<"json" | "unnest" | "copy", (b: ReturnType<typeof batch>) => Promise<void>> = {
    json: async (b) => {
      for (const kind of ["scans", "daily", "quarter"] as const)
        await client.query({ name: `json_${kind}`, text: statements.json[kind], values: [JSON.stringify(b[kind])] });
    },
    unnest: async (b) => {
      for (const kind of ["scans", "daily", "quarter"] as const)
        await client.query({ name: `unnest_${kind}`, text: statements.unnest[kind], values: columns(b[kind]) });
    },
    copy: async (b) => {
      await pipeline(
        Readable.from([copyText(b.scans)]),
        client.query(copyFrom(`COPY "ScanEvent" (${SCAN.map((c) => `"${c}"`).join(", ")}) FROM STDIN`)),
      );
      for (const kind of ["daily", "quarter"] as const)
        await client.query({ name: `unnest_${kind}`, text: statements.unnest[kind], values: columns(b[kind]) });
    },
  };
  const BATCHES = 40;
  const times: Record<keyof typeof ways, number[]> = { json: [], unnest: [], copy: [] };
  try {
    console.log(
      `\nWrite path on PostgreSQL: ${rounds} rounds of ${BATCHES} batches of 500 scans per way, one transaction per batch`,
    );
    for (let round = 0; round <= rounds; round++) {
      const order = (["json", "unnest", "copy"] as const).map((_, i, all) => all[(i + round) % all.length]);
      for (const way of order) {
        for (let i = 0; i < BATCHES; i++) {
          const b = batch();
          const start = performance.now();
          await client.query("BEGIN");
          await ways[way](b);
          await client.query("COMMIT");
          if (round > 0) times[way].push(performance.now() - start); // round 0 warms up
        }
      }
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    const stored = await db.scanEvent.count({ where: { dynamicCodeId: codeId } });
    if (stored !== (rounds + 1) * 3 * BATCHES * 500) throw new Error(`stored ${stored} scans`);
    for (const way of ["json", "unnest", "copy"] as const) {
      const ms = median(times[way]);
      const ratio = median(times.json) / ms;
      console.log(
        `${way.padEnd(8)} median ${ms.toFixed(2)} ms a batch = ${Math.round(500 / (ms / 1000)).toLocaleString("en")} scans/s; speed ÷ JSON ${ratio.toFixed(2)}`,
      );
      figure(
        `scan batch write, ${way} (PostgreSQL)`,
        `${ms.toFixed(2)} ms / 500 scans, ÷ JSON speed ${ratio.toFixed(2)}`,
        "—",
        true,
      );
    }
  } finally {
    await client.end();
    await db.$disconnect();
    await database.cleanup();
  }
}
