// Rules: recorded /q of a code with 20 targets (none matching: every one is tried) and UTM
// tags against a code without rules, in alternating rounds on one server.
import { startServer } from "../harness";
import {
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
 * Rules (contract, "Dynamic codes that do more"): recorded /q of a code with 20 targets and UTM
 * tags against a code without rules, on one server, loaded in alternating rounds. No target
 * matches the bench's iPhone, so each scan tries all 20 (the agent parsed and the country looked
 * up, both memoized) and is sent to the destination with its tags.
 */
export async function rules() {
  const { database, db, withCode } = await benchDatabase();
  const { record: plain } = await withCode("plain@example.com", "Plain");
  const targets = Array.from({ length: 20 }, (_, i) =>
    i % 3 === 0
      ? { url: `https://example.com/android/${i}`, os: "Android" as const }
      : i % 3 === 1
        ? { url: `https://example.com/desktop-de/${i}`, device: "desktop" as const, country: "DE" }
        : { url: `https://example.com/fr/${i}`, country: "FR" },
  );
  const { record: ruled } = await withCode("rules@example.com", "Rules", {
    targets,
    utm: { source: "qr", medium: "print", campaign: "bench" },
  });
  const server = await startServer({
    DATABASE_URL: database.url,
    VISITOR_HASH_SECRET: process.env.VISITOR_HASH_SECRET,
  });
  try {
    console.log(
      `\nRules: ${connections} connections, ${rounds} rounds of ${duration} s per load, on ${backendName(database.url)}`,
    );
    const location = (
      await fetch(`${server.base}/q/${ruled.code}`, { redirect: "manual", headers: { "user-agent": USER_AGENT } })
    ).headers.get("location");
    if (location !== `${DESTINATION}?utm_source=qr&utm_medium=print&utm_campaign=bench`)
      throw new Error(`the ruled code answered ${location}`);
    await load(`${server.base}/q/${plain.code}`, USER_AGENT, 2);
    await load(`${server.base}/q/${ruled.code}`, USER_AGENT, 2);
    const loads: Record<"plain" | "ruled", Load[]> = { plain: [], ruled: [] };
    for (let round = 1; round <= rounds; round++) {
      // Alternate which goes first, so that a drift of the machine falls on both.
      const order = round % 2 ? (["plain", "ruled"] as const) : (["ruled", "plain"] as const);
      for (const kind of order)
        loads[kind].push(await load(`${server.base}/q/${(kind === "plain" ? plain : ruled).code}`));
      console.log(
        `round ${round}: no rules ${loads.plain[round - 1].requestsPerSecond.toFixed(0)} req/s, 20 targets + UTM ${loads.ruled[round - 1].requestsPerSecond.toFixed(0)} req/s`,
      );
    }
    const [withRules, without] = [combined(loads.ruled), combined(loads.plain)];
    const ratio = withRules.requestsPerSecond / without.requestsPerSecond;
    console.log(
      `/q recorded, 20 targets + UTM ÷ no rules: ${ratio.toFixed(3)} (${withRules.requestsPerSecond.toFixed(0)} ÷ ${without.requestsPerSecond.toFixed(0)} req/s; p99 ${withRules.p99} vs ${without.p99} ms)`,
    );
    figure(
      `/q 20 targets + UTM ÷ no rules (${backendName(database.url)})`,
      `${ratio.toFixed(3)} (${withRules.requestsPerSecond.toFixed(0)} ÷ ${without.requestsPerSecond.toFixed(0)} req/s)`,
      "≥ 0.90",
      ratio >= 0.9,
    );
  } finally {
    await server.stop();
    await db.$disconnect();
    await database.cleanup();
  }
}
