// Spool: recorded /q with the scan spool (SCAN_SPOOL_FSYNC_MS default 1000), with it synced
// before every answer (0) and without it (SCAN_SPOOL=0), three servers of one database in
// alternating rounds; then the replay of a spool of 1M scans (--replay-scans) left by a
// crashed process: scans written per second.
import { startServer } from "../harness";
import {
  option,
  duration,
  connections,
  rounds,
  DESTINATION,
  USER_AGENT,
  figure,
  backendName,
  Load,
  load,
  combined,
  benchDatabase,
} from "./common";

/**
 * The scan spool's cost on recorded /q (with it, with it synced before every answer, without
 * it), and how fast a restarted server writes a large spool that a crash left.
 */
export async function spool() {
  const { database, db, withCode } = await benchDatabase();
  const { record } = await withCode("bench@example.com", "Bench");
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const path = await import("node:path");
  const common = { DATABASE_URL: database.url, VISITOR_HASH_SECRET: process.env.VISITOR_HASH_SECRET };
  const kinds = ["spool", "fsync0", "none"] as const;
  const servers = {
    spool: await startServer({ ...common }),
    fsync0: await startServer({ ...common, SCAN_SPOOL_FSYNC_MS: "0" }),
    none: await startServer({ ...common, SCAN_SPOOL: "0" }),
  };
  const replayDir = mkdtempSync(path.join(tmpdir(), "qr-bench-spool-"));
  try {
    const backend = backendName(database.url);
    console.log(`\nScan spool: ${connections} connections, ${rounds} rounds of ${duration} s per load, on ${backend}`);
    const url = (kind: (typeof kinds)[number]) => `${servers[kind].base}/q/${record.code}`;
    let answered = 0;
    for (const kind of kinds) answered += (await load(url(kind), USER_AGENT, 2)).redirects;
    const loads: Record<(typeof kinds)[number], Load[]> = { spool: [], fsync0: [], none: [] };
    for (let round = 1; round <= rounds; round++) {
      // Rotate which goes first, so that a drift of the machine falls on each.
      const order = [...kinds.slice(round % 3), ...kinds.slice(0, round % 3)];
      for (const kind of order) loads[kind].push(await load(url(kind)));
      console.log(
        `round ${round}: ${kinds.map((k) => `${k} ${loads[k][round - 1].requestsPerSecond.toFixed(0)} req/s`).join(", ")}`,
      );
    }
    const [withSpool, synced, without] = kinds.map((k) => combined(loads[k]));
    answered += withSpool.redirects + synced.redirects + without.redirects;
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code: record.code } });
    let recorded = 0;
    for (let i = 0; i < 100 && (recorded < answered || i < 3); i++) {
      await new Promise((r) => setTimeout(r, 200));
      recorded = await db.scanEvent.count({ where: { dynamicCodeId: id } });
    }
    const ratio = withSpool.requestsPerSecond / without.requestsPerSecond;
    const syncedRatio = synced.requestsPerSecond / without.requestsPerSecond;
    console.log(
      `/q recorded with the spool ÷ without: ${ratio.toFixed(3)} (${withSpool.requestsPerSecond.toFixed(0)} ÷ ${without.requestsPerSecond.toFixed(0)} req/s), p99 ${withSpool.p99} ms (without: ${without.p99} ms)`,
    );
    console.log(
      `SCAN_SPOOL_FSYNC_MS=0 ÷ without: ${syncedRatio.toFixed(3)} (${synced.requestsPerSecond.toFixed(0)} req/s), p99 ${synced.p99} ms`,
    );
    figure(
      `/q with spool ÷ without (${backend})`,
      `${ratio.toFixed(3)} (${withSpool.requestsPerSecond.toFixed(0)} ÷ ${without.requestsPerSecond.toFixed(0)} req/s)`,
      "≥ 0.95",
      ratio >= 0.95,
    );
    figure(`/q with spool p99 (${backend})`, `${withSpool.p99} ms`, "< 10 ms", withSpool.p99 < 10);
    figure(
      `/q with SCAN_SPOOL_FSYNC_MS=0 ÷ without (${backend})`,
      `${syncedRatio.toFixed(3)} (p99 ${synced.p99} ms)`,
      "—",
      true,
    );
    const inFlight = recorded - answered;
    figure(
      `/q redirects recorded, 3 servers (${backend})`,
      `${recorded} of ${answered} (+${inFlight} in flight)`,
      "all",
      inFlight >= 0 && inFlight <= connections * 3 * (rounds + 1),
    );

    // Replay: a spool of N scans left behind, as a crash would, then a server started on it.
    const scans = option("--replay-scans", 1_000_000);
    const { Spool } = await import("../../server/scan/spool/spool");
    const { timeOrderedId } = await import("../../server/platform/ids");
    const left = new Spool(replayDir, {
      fsyncMs: 1000,
      onError: (error) => console.error(error),
      onTorn: () => undefined,
    });
    left.open();
    const started = Date.now();
    for (let i = 0; i < scans; i += 1000) {
      const payloads = Array.from({ length: Math.min(1000, scans - i) }, (_, j) =>
        Buffer.from(
          JSON.stringify([
            timeOrderedId("scan"),
            id,
            started - (scans - i - j),
            DESTINATION,
            USER_AGENT,
            `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${j & 255}`,
            null,
          ]),
        ),
      );
      left.append(payloads);
    }
    left.close(); // no checkpoint: everything in it is left to write, as after a kill -9
    const before = await db.scanEvent.count({ where: { dynamicCodeId: id } });
    const replaying = await startServer({ ...common, SCAN_SPOOL_DIR: replayDir, LOG_LEVEL: "info" });
    const deadline = Date.now() + 3_600_000;
    while (!replaying.output().includes('"scans.spool_replayed"') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 500));
    const line = JSON.parse(
      replaying
        .output()
        .split("\n")
        .find((l) => l.includes('"scans.spool_replayed"'))!,
    ) as { scans: number; stored: number; seconds: number };
    const after = await db.scanEvent.count({ where: { dynamicCodeId: id } });
    await replaying.stop();
    const rate = line.stored / line.seconds;
    console.log(
      `replay: ${line.scans} scans left in the spool, ${line.stored} written in ${line.seconds} s: ${Math.round(rate).toLocaleString("en")} scans/s; ${after - before} new rows`,
    );
    figure(
      `spool replay after a crash (${backend})`,
      `${Math.round(rate).toLocaleString("en")} scans/s (${line.stored.toLocaleString("en")} in ${line.seconds} s)`,
      "—",
      after - before === scans,
    );
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
    rmSync(replayDir, { recursive: true, force: true });
    await db.$disconnect();
    await database.cleanup();
  }
}
