// Webhooks: scan.created to a receiver on loopback answering 204 (a process of its own): at a
// fixed 2,000 scans a second for 30 s, every event delivered and the p99 from scan to delivery;
// then /q at full load on a code whose library subscribes to scan.created against a code whose
// library does not, in alternating rounds, and the time the backlog then takes to drain.
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { freePort, startServer } from "../harness";
import { rounds, USER_AGENT, figure, backendName, load, benchDatabase } from "./common";

/** A webhook receiver in a process of its own: 204 to every POST; GET /stats → delivered count and scan→delivery latencies. */
async function webhookReceiver(): Promise<{
  url: string;
  stats: () => Promise<{ count: number; distinct: number; p50: number; p99: number }>;
  stop: () => void;
}> {
  const port = await freePort();
  const source = `const seen = new Set(); const latencies = []; let count = 0;
  require("node:http").createServer((req, res) => {
    if (req.method === "GET") {
      const sorted = Float64Array.from(latencies).sort();
      const at = (p) => sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ count, distinct: seen.size, p50: at(0.5), p99: at(0.99) }));
      return;
    }
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      count++;
      seen.add(req.headers["webhook-id"]);
      const event = JSON.parse(body);
      if (event.type === "scan.created") latencies.push(Date.now() - Date.parse(event.data.scanned_at));
      res.writeHead(204).end();
    });
  }).listen(${port}, "127.0.0.1", () => console.log("ready"));`;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  const url = `http://127.0.0.1:${port}`;
  return { url: `${url}/hook`, stats: async () => (await fetch(`${url}/stats`)).json(), stop: () => child.kill() };
}

export async function webhooks() {
  process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS = "1"; // read with the rest of the configuration, on the first import
  const { database, db, withCode } = await benchDatabase();
  const { createWebhook } = await import("../../server/webhooks");
  const { actor: subscriber, record: hooked } = await withCode("hooks@example.com", "Hooked");
  const { record: plain } = await withCode("quiet@example.com", "Plain");
  const receiver = await webhookReceiver();
  await createWebhook(subscriber, { url: receiver.url, events: ["scan.created"] });
  const server = await startServer({
    DATABASE_URL: database.url,
    VISITOR_HASH_SECRET: process.env.VISITOR_HASH_SECRET,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
  });
  const backend = backendName(database.url);
  const { id: hookedId } = await db.dynamicCode.findFirstOrThrow({ where: { code: hooked.code } });
  const recorded = () => db.scanEvent.count({ where: { dynamicCodeId: hookedId } });
  /** Waits until the receiver holds an event for every recorded scan of the subscribed code; the seconds it took. */
  const drained = async (limitS: number) => {
    const started = Date.now();
    let last = -1;
    for (;;) {
      const [stats, scans] = await Promise.all([receiver.stats(), recorded()]);
      if (stats.distinct >= scans && scans === last) return { seconds: (Date.now() - started) / 1000, stats, scans };
      if (Date.now() - started > limitS * 1000) return { seconds: Infinity, stats, scans };
      last = scans;
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  try {
    console.log(`\nWebhooks: scan.created to a receiver on loopback (204), on ${backend}`);
    const fixed = await autocannon({
      url: `${server.base}/q/${hooked.code}`,
      connections: 50,
      overallRate: 2000,
      duration: 30,
      headers: { "user-agent": USER_AGENT },
    });
    const first = await drained(120);
    console.log(
      `fixed ${fixed.requests.average.toFixed(0)} scans/s for 30 s: ${first.stats.distinct} of ${first.scans} events delivered (${first.stats.count} POSTs), scan → delivery p50 ${first.stats.p50} ms, p99 ${first.stats.p99} ms`,
    );
    figure(
      `scan.created at 2,000 scans/s, p99 scan → delivery (${backend})`,
      `${first.stats.p99} ms (${first.stats.distinct} of ${first.scans} delivered)`,
      "< 5 s, all",
      first.stats.p99 < 5000 && first.stats.distinct === first.scans,
    );

    const rates: Record<"with" | "without", number[]> = { with: [], without: [] };
    const roundsHere = Math.min(rounds, 3);
    let backlog = 0;
    let drain = await drained(900);
    for (let round = 1; round <= roundsHere; round++) {
      // The previous round's backlog drained first: its deliveries would slow the round without webhooks.
      if (round > 1) drain = await drained(900);
      rates.without.push((await load(`${server.base}/q/${plain.code}`)).requestsPerSecond);
      rates.with.push((await load(`${server.base}/q/${hooked.code}`)).requestsPerSecond);
      backlog = (await recorded()) - (await receiver.stats()).distinct;
      console.log(
        `round ${round}: /q without webhooks ${rates.without.at(-1)!.toFixed(0)} req/s, with a scan.created subscriber ${rates.with.at(-1)!.toFixed(0)} req/s, backlog ${backlog} events`,
      );
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const ratio = mean(rates.with) / mean(rates.without);
    drain = await drained(900);
    console.log(
      `/q with ÷ without: ${ratio.toFixed(2)}; backlog at the end of the load ${backlog} events, drained in ${drain.seconds.toFixed(1)} s; ${drain.stats.distinct} of ${drain.scans} delivered`,
    );
    figure(
      `/q with a scan.created subscriber ÷ without (${backend})`,
      `${ratio.toFixed(2)} (${mean(rates.with).toFixed(0)} ÷ ${mean(rates.without).toFixed(0)} req/s)`,
      "≥ 0.70",
      ratio >= 0.7,
    );
    figure(
      `scan.created backlog drained (${backend})`,
      `${backlog} events in ${drain.seconds.toFixed(1)} s, ${drain.stats.distinct} of ${drain.scans}`,
      "all",
      drain.stats.distinct === drain.scans,
    );
  } finally {
    receiver.stop();
    await server.stop();
    await db.$disconnect();
    await database.cleanup();
  }
}
