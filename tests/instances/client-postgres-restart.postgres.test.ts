// The typed client (clients/typescript) while PostgreSQL restarts, on a cluster of the test's
// own: a batch create and a list sent while the database is down get 503 with Retry-After,
// are retried by the client after it, and succeed once the database is back; the create,
// retried with its one Idempotency-Key, is stored once (issue 21's list).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createClient } from "../../clients/typescript/src";
import { logIn, until } from "../helpers";
import { serverOnOwnPostgres } from "../own-postgres";

describe("the typed client while PostgreSQL restarts", () => {
  const own = serverOnOwnPostgres();

  it("retries a write and a read after the 503's Retry-After until the database is back; the write is stored once", async () => {
    const { server, database } = own;
    const page = await logIn("pro@example.com", "demo-password", server.base);
    const { key } = (await page("keys.generatePersonal")) as { key: string };
    const retries: { status: number | null; method: string; waitSeconds: number }[] = [];
    const client = createClient({
      baseUrl: server.base,
      apiKey: key,
      retry: { attempts: 30 },
      onRetry: (r) => retries.push(r),
    });
    const tag = `restart-${Date.now()}`;

    database.stop();
    const write = client.unwrap(
      client.api.POST("/qrcodes/batch", {
        body: {
          qrcodes: Array.from({ length: 5 }, (_, i) => ({ name: `${tag} ${i}`, url: `https://example.com/${i}` })),
        },
      }),
    );
    const read = client.unwrap(client.api.GET("/qrcodes", { params: { query: { limit: 1 } } }));
    // Both have met the outage (a 503, told to wait Retry-After: 1) before the database comes back.
    await until(
      () => ["POST", "GET"].every((method) => retries.some((r) => r.method === method && r.status === 503)),
      "a 503 retried for the write and the read",
      20_000,
    );
    database.start();
    const [created] = await Promise.all([write, read]);

    assert.equal(created.created.length, 5);
    const seen = retries.filter((r) => r.status === 503);
    assert.ok(
      seen.every((r) => r.waitSeconds === 1),
      `waited the Retry-After: ${JSON.stringify(retries)}`,
    );
    assert.deepEqual(
      retries.filter((r) => r.status !== 503 && r.status !== null),
      [],
      "nothing but 503s (or a dropped connection) was retried",
    );
    const stored = [];
    for await (const code of client.staticCodes()) if (code.name.startsWith(tag)) stored.push(code.name);
    assert.deepEqual(
      stored.sort(),
      Array.from({ length: 5 }, (_, i) => `${tag} ${i}`),
      "the batch is stored once, whole",
    );
    console.log(
      `# typed client across a PostgreSQL restart: ${seen.length} answers 503 retried (${retries.length} retries), the batch stored once`,
    );
  });
});
