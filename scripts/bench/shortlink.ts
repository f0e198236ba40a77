// Short link: recorded /q/<code> on the three instances of issue 41 (SERVE_PAGES=0; the default
// before any page; the default after one page), and a bot's unrecorded /q/<code> on the last,
// against a bare node:http server that answers the same 302 from memory, all loaded by wrk in
// alternating rounds (so that a drift of the machine's speed falls on all); then scans recorded
// against redirects answered. Uses a fresh database on the backend DATABASE_URL names (SQLite
// by default). Goals (issue 41, the default instance after a page): ≥ 0.60 of the floor on
// SQLite, ≥ 0.50 on PostgreSQL + Redis, p99 < 10 ms; not recorded ≥ 0.50 (issue 18). And
// `/<code>` with a verified custom domain's Host against `/q/<code>` on the same instance
// (issue 43): ≥ 0.95.
import {
  duration,
  connections,
  rounds,
  USER_AGENT,
  figure,
  backendName,
  load,
  bareServer,
  benchDatabase,
  alternate,
  startInstances,
  instanceFigures,
  loadRow,
  GOAL_INSTANCE,
  ratioOf,
  DESTINATION,
} from "./common";

export async function shortlink() {
  const { database, db, withCode } = await benchDatabase();
  const { record } = await withCode("bench@example.com", "Bench");
  // A verified custom domain and a code on it (the DNS check is the routes' business, not the redirect's).
  const domain = "go.bench.example.com";
  const owner = await withCode("bench-domain@example.com", "Bench domain");
  await db.domain.create({
    data: {
      domain,
      library: `user:${owner.actor.userId}`,
      token: "bench",
      verifiedAt: new Date(),
      createdAt: new Date(),
    },
  });
  const { createDynamicCodes } = await import("../../server/library/dynamicCodes");
  const [onDomain] = await createDynamicCodes(owner.actor, [
    { destination_url: DESTINATION, name: "On a domain", domain },
  ]);
  const backend = backendName(database.url);

  const instances = await startInstances({
    DATABASE_URL: database.url,
    VISITOR_HASH_SECRET: process.env.VISITOR_HASH_SECRET,
  });
  const bare = await bareServer();
  try {
    console.log(`\nShort link: ${connections} connections, ${rounds} rounds of ${duration} s per load, on ${backend}`);
    const BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
    const path = `/q/${record.code}`;
    const goalServer = instances.servers.find((s) => s.name === GOAL_INSTANCE)!.server;
    const { floor, series } = await alternate({ name: "bare", run: (seconds) => load(bare.url, USER_AGENT, seconds) }, [
      ...instances.servers.map(({ name, server }) => ({
        name,
        run: (seconds: number) => load(`${server.base}${path}`, USER_AGENT, seconds),
      })),
      // The same instance, a code on a custom domain: `/<code>` with its Host.
      {
        name: "custom domain",
        run: (seconds) =>
          load(`${goalServer.base}/${onDomain.code}`, USER_AGENT, seconds, undefined, [`Host: ${domain}`]),
      },
      // A bot's scan is redirected but not recorded: the cost of the redirect alone.
      { name: "bot", run: (seconds) => load(`${goalServer.base}${path}`, BOT, seconds) },
    ]);
    const recordedSeries = series.slice(0, instances.servers.length);
    const custom = series.at(-2)!.load;
    const unrecorded = series.at(-1)!.load;
    console.log(loadRow("bare node:http 302", floor));
    for (const s of recordedSeries) console.log(loadRow(`/q/<code> recorded, ${s.name}`, s.load));
    console.log(loadRow(`/<code> on a custom domain (Host), ${GOAL_INSTANCE}`, custom));
    console.log(loadRow(`/q/<code> bot (not recorded), ${GOAL_INSTANCE}`, unrecorded));
    const goal = backend === "SQLite" ? 0.6 : 0.5;
    instanceFigures("/q recorded", backend, floor, recordedSeries, goal);
    const goalSeries = recordedSeries.find((s) => s.name === GOAL_INSTANCE)!.load;
    const onCustom = ratioOf(custom, goalSeries);
    figure(
      `/<code> on a custom domain ÷ /q/<code>, ${GOAL_INSTANCE} (${backend})`,
      onCustom.toFixed(2),
      "≥ 0.95",
      onCustom >= 0.95,
    );
    const ratio = ratioOf(unrecorded, floor);
    figure(`/q not recorded ÷ bare, ${GOAL_INSTANCE} (${backend})`, ratio.toFixed(2), "≥ 0.50", ratio >= 0.5);

    // Every answered redirect must be recorded: the buffer is written within 200 ms.
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code: record.code } });
    let recorded = 0;
    const answered = recordedSeries.reduce((sum, s) => sum + s.load.redirects + s.warmUp.redirects, 0);
    for (let i = 0; i < 50 && (recorded < answered || i < 3); i++) {
      await new Promise((r) => setTimeout(r, 200));
      recorded = await db.scanEvent.count({ where: { dynamicCodeId: id } });
    }
    // wrk counts the answers that arrive before its clock stops; up to one request per
    // connection is still in flight then, answered and recorded, but not counted.
    const inFlight = recorded - answered;
    const loads = recordedSeries.length * (rounds + 1);
    const verdict = inFlight >= 0 && inFlight <= connections * loads ? "every redirect recorded" : "MISMATCH";
    console.log(
      `redirects answered ${answered} (+${inFlight} in flight at the ends of loads), scans recorded ${recorded}: ${verdict}`,
    );
    figure(
      `/q redirects recorded (${backend})`,
      `${recorded} of ${answered} (+${inFlight} in flight)`,
      "all",
      verdict === "every redirect recorded",
    );
  } finally {
    bare.stop();
    await instances.stop();
    await db.$disconnect();
    await database.cleanup();
  }
}
