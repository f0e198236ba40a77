// Images: the p99 of a small API read while four keys draw 2,048 px PNGs, against it alone.
import { freshDatabase, startServer } from "../harness";
import { duration, figure, buildOnce, backendName, percentile } from "./common";

/**
 * Images (issue 24): the p99 of GET /v1/qrcodes?limit=1 alone, then while four keys each fetch
 * 2,048 px PNGs back to back (sizes 2000 to 2048 in turn, so that the cache does not hide the
 * drawing), in the same run. The probe is paced (40 a second, spread over 10 keys, under their
 * token buckets): its latency is what an unrelated caller sees. Goal: p99 under 50 ms.
 */
export async function images() {
  buildOnce();
  const database = await freshDatabase("bench");
  process.env.DATABASE_URL = database.url;
  const { db } = await import("../../server/platform/db");
  const { createUser } = await import("../../server/accounts/users");
  const { generateKey } = await import("../../server/keys/apiKeys");
  const { createStaticCodes } = await import("../../server/library/staticCodes");
  const accounts: { key: string; id: string }[] = [];
  for (let i = 0; i < 14; i++) {
    const user = await createUser(
      { email: `images-bench-${i}@example.com`, password: "bench-password-1", name: `Bench ${i}` },
      "pro",
      { verified: true },
    );
    const { key } = await generateKey(user.id, "personal");
    const [record] = await createStaticCodes({ userId: user.id, library: { kind: "personal", userId: user.id } }, [
      { url: `https://example.com/images-bench/${i}`, name: `Bench ${i}` },
    ]);
    accounts.push({ key, id: record.qr_id });
  }
  const [drawers, probes] = [accounts.slice(0, 4), accounts.slice(4)];
  const server = await startServer({ DATABASE_URL: database.url, RATE_LIMIT_PERSONAL_DAILY_QUOTA: "1000000" });
  const seconds = Math.min(duration, 10);
  let drawing = false;
  const probe = async () => {
    const samples: number[] = [];
    const failures: number[] = [];
    const end = performance.now() + seconds * 1000;
    for (let i = 0; performance.now() < end; i++) {
      const start = performance.now();
      const r = await fetch(`${server.base}/v1/qrcodes?limit=1`, {
        headers: { "x-api-key": probes[i % probes.length].key },
      });
      await r.arrayBuffer();
      const took = performance.now() - start;
      if (r.status === 200) samples.push(took);
      else failures.push(r.status);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 25 - took)));
    }
    return {
      p50: percentile(
        samples.sort((a, b) => a - b),
        50,
      ),
      p99: percentile(samples, 99),
      count: samples.length,
      failures: failures.length,
    };
  };
  try {
    console.log(
      `\nImages: GET /v1/qrcodes?limit=1 (40/s for ${seconds} s) alone, then while 4 keys each fetch 2,048 px PNGs back to back, on ${backendName(database.url)}`,
    );
    // Warm-up, not measured: the paths compiled, the pool's threads started.
    await Promise.all(
      drawers.map(({ key, id }) =>
        fetch(`${server.base}/v1/qrcodes/${id}/image?format=png&size=1024`, { headers: { "x-api-key": key } }).then(
          (r) => r.arrayBuffer(),
        ),
      ),
    );
    await probe();
    const alone = await probe();
    drawing = true;
    const drawn: number[] = [];
    const loaders = drawers.map(async ({ key, id }, k) => {
      for (let n = 0; drawing; n++) {
        const start = performance.now();
        const r = await fetch(`${server.base}/v1/qrcodes/${id}/image?format=png&size=${2048 - (n % 49)}`, {
          headers: { "x-api-key": key },
        });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`image for key ${k}: ${r.status}`);
        drawn.push(performance.now() - start);
      }
    });
    const busy = await probe();
    drawing = false;
    await Promise.all(loaders);
    const imageP50 = percentile(
      drawn.sort((a, b) => a - b),
      50,
    );
    const row = (name: string, l: Awaited<ReturnType<typeof probe>>) =>
      `${name.padEnd(40)}p50 ${l.p50.toFixed(1).padStart(6)} ms   p99 ${l.p99.toFixed(1).padStart(6)} ms   (${l.count} answers, ${l.failures} not 200)`;
    console.log(row("GET /v1/qrcodes?limit=1 alone", alone));
    console.log(row("... while 4 keys draw 2,048 px PNGs", busy));
    console.log(`2,048 px PNGs drawn meanwhile: ${drawn.length} (p50 ${imageP50.toFixed(0)} ms each, 4 at a time)`);
    const backend = backendName(database.url);
    figure(`GET /v1/qrcodes?limit=1 p99 alone (${backend})`, `${alone.p99.toFixed(1)} ms`, "—", true);
    figure(
      `GET /v1/qrcodes?limit=1 p99, 4 keys drawing PNGs (${backend})`,
      `${busy.p99.toFixed(1)} ms (${drawn.length} PNGs drawn)`,
      "< 50 ms",
      busy.p99 < 50,
    );
  } finally {
    drawing = false;
    await server.stop();
    await db.$disconnect();
    await database.cleanup();
  }
}
