// Rate limiter: checks per second and the latency of one check, in process and on a Redis of
// the bench's own, against the baseline of a Redis PING on the same connection.
import { startRedis } from "../harness";
import { figure, percentile } from "./common";

export async function rateLimiter() {
  const redisServer = await startRedis();
  process.env.REDIS_URL = redisServer.url;
  const { take, takeInProcess, keyRule } = await import("../../server/rate-limit");
  const { redis, whenReady } = await import("../../server/platform/redis");
  const client = redis()!;
  await whenReady(client, 5000);
  // Many keys, so that most checks pass and none is an outlier.
  const rule = keyRule("business");
  const keys = Array.from({ length: 1000 }, (_, i) => `bench:${i}`);
  const N = 200_000;
  const t = performance.now();
  for (let i = 0; i < N; i++) takeInProcess(keys[i % keys.length], rule);
  const memoryPerSecond = N / ((performance.now() - t) / 1000);

  const timed = async (f: (i: number) => Promise<unknown>, n: number) => {
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      await f(i);
      samples.push(performance.now() - start);
    }
    return samples.sort((x, y) => x - y);
  };
  const concurrent = async (f: (i: number) => Promise<unknown>, n: number, width = 50) => {
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next < n) await f(next++);
      }),
    );
    return n / ((performance.now() - start) / 1000);
  };
  const ping = await timed(() => client.ping(), 5000);
  const check = await timed((i) => take(keys[i % keys.length], rule), 5000);
  const pingRate = await concurrent(() => client.ping(), 50_000);
  const checkRate = await concurrent((i) => take(keys[i % keys.length], rule), 50_000);
  const ms = (v: number) => `${(v * 1000).toFixed(0)} µs`;
  console.log(`\nRate limiter (token bucket + daily quota, one atomic step)`);
  console.log(`in process: ${Math.round(memoryPerSecond).toLocaleString("en")} checks/s (one thread)`);
  console.log(
    `Redis PING (baseline): ${Math.round(pingRate).toLocaleString("en")}/s at 50 in flight; one at a time p50 ${ms(percentile(ping, 50))}, p99 ${ms(percentile(ping, 99))}`,
  );
  console.log(
    `Redis check (Lua):     ${Math.round(checkRate).toLocaleString("en")}/s at 50 in flight (${(checkRate / pingRate).toFixed(2)} of PING); one at a time p50 ${ms(percentile(check, 50))}, p99 ${ms(percentile(check, 99))}`,
  );
  figure("rate limit check in process", `${Math.round(memoryPerSecond).toLocaleString("en")} checks/s`, "—", true);
  figure(
    "rate limit check on Redis ÷ PING",
    `${(checkRate / pingRate).toFixed(2)} (${Math.round(checkRate).toLocaleString("en")}/s)`,
    "—",
    true,
  );
  client.disconnect();
  await redisServer.stop();
}
