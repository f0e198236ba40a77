// npx tsx scripts/bench/hostile-stretches.ts (issue 37): the longest stretch of CPU between two
// turns of the event loop while each heavy hostile request is worked on, in process: /v1's
// requests through answerV1 (the server's own path, the image pool started), the pages' import
// check through its endpoint's steps (the body decoded, its shape checked, parsed, tRPC's input
// check, the rows' checks). CPU time, not wall time: on a shared machine the hold figures of
// `npm run bench -- --only hostile` are inflated by every other process, these much less. Counted
// with process.cpuUsage(), so the image pool's and the collector's threads add to it a little.
// Node options of the server's (say --max-semi-space-size=2) go before --import tsx.
import type { Actor } from "../../server/library/library";
import { freshDatabase } from "../harness";

const RUNS = 7;
process.env.NEXTAUTH_SECRET ??= "bench-only-session-secret-not-for-production";
process.env.VISITOR_HASH_SECRET ??= "bench-only-visitor-secret-not-for-production";
process.env.MAIL_OUTBOX ??= "1";
process.env.RATE_LIMIT_PERSONAL_DAILY_QUOTA = "1000000";

const database = await freshDatabase("bench");
process.env.DATABASE_URL = database.url;
const { db } = await import("../../server/platform/db");
const { createUser } = await import("../../server/accounts/users");
const { generateKey } = await import("../../server/keys/apiKeys");
const { answerV1 } = await import("../../server/api/v1");
const { startImagePool } = await import("../../server/images/pool");
const { checkImportRows, importCheckInput } = await import("../../server/library/libraryImport");
const { jsonShapeProblem, utf8TextInTurns } = await import("../../server/http/body");
const { yieldToIo } = await import("../../server/platform/event-loop");
const { hostileBodies } = await import("./hostile-bodies");
startImagePool();

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The longest CPU stretch (ms) between two turns of the event loop while `work` runs. */
async function longestStretch(work: () => Promise<unknown>): Promise<number> {
  let last = cpuMs();
  let longest = 0;
  let working = true;
  const turn = () => {
    const now = cpuMs();
    longest = Math.max(longest, now - last);
    last = now;
    if (working) setImmediate(turn);
  };
  setImmediate(turn);
  await work();
  working = false;
  return longest;
}

/** The median and the longest of RUNS runs (each prepared, then measured), the first (code still compiling) left out. */
async function report(name: string, prepare: (i: number) => Promise<() => Promise<unknown>>): Promise<void> {
  const stretches: number[] = [];
  for (let i = 0; i < RUNS; i++) stretches.push(await longestStretch(await prepare(i)));
  const counted = stretches.slice(1).sort((a, b) => a - b);
  console.log(
    `  ${name.padEnd(60)} median ${counted[counted.length >> 1].toFixed(1).padStart(5)} ms   max ${counted[counted.length - 1].toFixed(1).padStart(5)} ms`,
  );
}

try {
  const owner = await createUser(
    { email: "stretches@example.com", password: "bench-password-1", name: "Stretches" },
    "pro",
    { verified: true },
  );
  const bodies = hostileBodies("abcdEFGH");
  console.log(
    `The longest CPU stretch between two event-loop turns, median of ${RUNS - 1} runs (node ${process.execArgv.filter((a) => a.startsWith("--max")).join(" ") || "with V8's defaults"})`,
  );
  let accounts = 0;
  for (const request of bodies.filter((b) => b.edge === "v1")) {
    await report(request.name, async (i) => {
      // A key of its own each run (the rate limits), and a logo not checked before (its check is remembered).
      const user = await createUser(
        { email: `stretches-${accounts++}@example.com`, password: "bench-password-1", name: "S" },
        "pro",
        { verified: true },
      );
      const { key } = await generateKey(user.id, "personal");
      const body = Buffer.from(request.name.includes("SVG") ? request.body.replace("#000", `#00${i}`) : request.body);
      const headers = { "content-type": "application/json", "x-api-key": key, host: "127.0.0.1:3000" };
      return () =>
        answerV1(
          new Request(`http://127.0.0.1:3000${request.path}`, {
            method: request.method,
            headers,
            body,
            duplex: "half",
          } as RequestInit),
        );
    });
  }
  const actor: Actor = {
    userId: owner.id,
    library: { kind: "personal", userId: owner.id },
    servedHosts: ["127.0.0.1:3000"],
  };
  for (const request of bodies.filter((b) => b.path.endsWith("libraryImport.check"))) {
    const bytes = Buffer.from(request.body);
    await report(request.name, async () => async () => {
      const text = await utf8TextInTurns(bytes);
      await yieldToIo();
      if (jsonShapeProblem(text)) return;
      await yieldToIo();
      const input = importCheckInput.parse(JSON.parse(text));
      await checkImportRows(actor, input.kind, input.rows);
    });
  }
} finally {
  await db.$disconnect();
  await database.cleanup();
}
process.exit(0);
