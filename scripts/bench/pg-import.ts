// A bundle of N dynamic codes (no scans) imported into a personal library on a new database of
// the backend DATABASE_URL names, as /v1 does (importBundle: spooled, then checked and written
// in its thread, then the Redis copy refreshed), or each phase timed in process (--phases).
// A bench of its own, not a section of scripts/bench.ts.
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/x REDIS_URL=redis://127.0.0.1:6379 \
//     npx tsx scripts/bench/pg-import.ts 100000 [--phases] [--keep]
import { randomUUID } from "node:crypto";
import { freshDatabase } from "../harness";

const N = Number(process.argv[2] ?? 10_000);
const database = await freshDatabase("pgimport");
process.env.DATABASE_URL = database.url;
process.env.REDIS_KEY_PREFIX ??= `pgimport-${randomUUID()}:`;
try {
  const { createUser } = await import("../../server/accounts/users");
  const { generateKey } = await import("../../server/keys/apiKeys");
  const user = await createUser(
    { email: `pgimport-${randomUUID()}@test.example`, password: "bundle-password-1", name: "Import" },
    "pro",
    { verified: true },
  );
  const apiKeyId = (await generateKey(user.id, "personal")).summary.id;
  const library = { kind: "personal" as const, userId: user.id };
  const createdAt = Math.floor(Date.now() / 1000) - 86_400;
  const text = [
    JSON.stringify({ type: "bundle", version: 1 }),
    ...Array.from({ length: N }, (_, n) =>
      JSON.stringify({
        type: "dynamic",
        code: `c${n.toString(36)}x${(n * 7919).toString(36)}`,
        destination_url: `https://shop.example.com/p/${n}?ref=print`,
        name: `Link ${n}`,
        created_at: createdAt,
      }),
    ),
  ].join("\n");
  const seconds = (start: number) => ((performance.now() - start) / 1000).toFixed(2);
  if (process.argv.includes("--phases")) {
    const { checkBundle } = await import("../../server/bundle/checkBundle");
    const { writeBundle } = await import("../../server/bundle/writeBundle");
    const { refreshCopy } = await import("../../server/scan/live-copy");
    const lines = () => text.split("\n").map((t, i) => [i + 1, t] as [number, string]);
    let t = performance.now();
    const plan = await checkBundle(lines, library);
    console.log(`check ${seconds(t)} s`);
    t = performance.now();
    const { created, codes } = await writeBundle(lines, plan, { userId: user.id, apiKeyId, library });
    console.log(`write ${seconds(t)} s`, created);
    t = performance.now();
    for (let i = 0; i < codes.length; i += 5000) await refreshCopy(codes.slice(i, i + 5000));
    console.log(`copy ${seconds(t)} s`);
  } else {
    const { importBundle } = await import("../../server/bundle/importBundle");
    const principal = { userId: user.id, library, apiKeyId, scope: "personal", libraryVersion: 0 };
    const t = performance.now();
    const body = (async function* () {
      yield Buffer.from(`${text}\n`);
    })();
    const result = await importBundle(principal as never, body);
    console.log(`import of ${N} codes: ${seconds(t)} s`, result.created);
  }
} finally {
  // The run's Redis keys (its own prefix) go with its database.
  const { redis, redisPrefix } = await import("../../server/platform/redis");
  const client = redis();
  if (client && !process.argv.includes("--keep")) {
    const keys = await client.keys(`${redisPrefix()}*`);
    if (keys.length > 0) await client.del(...keys);
  }
  if (!process.argv.includes("--keep")) await database.cleanup();
  else console.log(`kept ${database.url}`);
  process.exit(0);
}
