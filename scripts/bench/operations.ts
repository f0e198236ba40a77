// Operations: recorded /q with metrics and logs on (the defaults) against off.
import { startServer } from "../harness";
import {
  duration,
  connections,
  rounds,
  USER_AGENT,
  figure,
  backendName,
  Load,
  load,
  combined,
  benchDatabase,
} from "./common";

/**
 * Metrics and logs on (the production defaults: METRICS=1, LOG_LEVEL=info, /q not
 * access-logged) against off (METRICS=0, LOG_LEVEL=silent): recorded /q on two servers of one
 * database, loaded in alternating rounds.
 */
export async function operations() {
  const { database, db, withCode } = await benchDatabase();
  const { record } = await withCode("bench@example.com", "Bench");
  const common = { DATABASE_URL: database.url, VISITOR_HASH_SECRET: process.env.VISITOR_HASH_SECRET };
  const on = await startServer({ ...common, METRICS: "1", LOG_LEVEL: "info" });
  const off = await startServer({ ...common, METRICS: "0", LOG_LEVEL: "silent" });
  try {
    console.log(
      `\nMetrics and logs: ${connections} connections, ${rounds} rounds of ${duration} s per load, on ${backendName(database.url)}`,
    );
    await load(`${on.base}/q/${record.code}`, USER_AGENT, 2);
    await load(`${off.base}/q/${record.code}`, USER_AGENT, 2);
    const loads: Record<"on" | "off", Load[]> = { on: [], off: [] };
    for (let round = 1; round <= rounds; round++) {
      // Alternate which goes first, so that a drift of the machine falls on both.
      const order = round % 2 ? (["off", "on"] as const) : (["on", "off"] as const);
      for (const kind of order) loads[kind].push(await load(`${(kind === "on" ? on : off).base}/q/${record.code}`));
      console.log(
        `round ${round}: on ${loads.on[round - 1].requestsPerSecond.toFixed(0)} req/s, off ${loads.off[round - 1].requestsPerSecond.toFixed(0)} req/s`,
      );
    }
    const [withOps, without] = [combined(loads.on), combined(loads.off)];
    const ratio = withOps.requestsPerSecond / without.requestsPerSecond;
    // Each round's pair, loaded one after the other: its ratio is less exposed to a busy machine.
    const paired = loads.on.map((l, i) => l.requestsPerSecond / loads.off[i].requestsPerSecond).sort((a, b) => a - b);
    const median = paired[Math.floor(paired.length / 2)];
    console.log(`per-round ratios ${paired.map((r) => r.toFixed(2)).join(", ")}; median ${median.toFixed(3)}`);
    console.log(
      `/q recorded, metrics and logs on ÷ off: ${ratio.toFixed(3)} (${withOps.requestsPerSecond.toFixed(0)} ÷ ${without.requestsPerSecond.toFixed(0)} req/s; p99 ${withOps.p99} vs ${without.p99} ms)`,
    );
    figure(
      `/q metrics+logs on ÷ off (${backendName(database.url)})`,
      `${ratio.toFixed(3)} (${withOps.requestsPerSecond.toFixed(0)} ÷ ${without.requestsPerSecond.toFixed(0)} req/s), round median ${median.toFixed(3)}`,
      "≥ 0.95",
      ratio >= 0.95,
    );
  } finally {
    await Promise.all([on.stop(), off.stop()]);
    await db.$disconnect();
    await database.cleanup();
  }
}
