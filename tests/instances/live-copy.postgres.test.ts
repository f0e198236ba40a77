// The copy of every code in Redis (server/scan/live-copy), which answers short links while
// PostgreSQL is down, follows a code made and a destination changed while this process's Redis
// connection is still being made (a process's first moments, a reconnection): its commands
// would fail at once (no offline queue), and the copy would keep the old destination, where a
// later outage would send every scan. PostgreSQL + Redis only (the copy is kept only there).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Redis } from "ioredis";
import { env } from "../../server/platform/env";
import { db } from "../../server/platform/db";
import { closeRedis, redisPrefix } from "../../server/platform/redis";
import { createUser } from "../../server/accounts/users";
import { createDynamicCodes } from "../../server/library/dynamicCodes";
import { invalidateResolution } from "../../server/scan/resolve";

describe("the copy of every code in Redis", () => {
  it("has a code made, then its new destination, each as the change returns, though the connection was being made", async () => {
    const reader = new Redis(env.redisUrl!);
    const copied = async (code: string) =>
      (JSON.parse((await reader.hget(`${redisPrefix()}resolutions`, code)) ?? "{}") as { destinationUrl?: string })
        .destinationUrl;
    try {
      const user = await createUser(
        { email: `copy-${Date.now()}@example.com`, password: "copy-test-password-1", name: "Copy" },
        "business",
        { verified: true },
      );
      const actor = { userId: user.id, library: { kind: "personal" as const, userId: user.id } };
      closeRedis(); // the next command makes a new connection
      const [record] = await createDynamicCodes(actor, [
        { destination_url: "https://example.com/before", name: "Copied" },
      ]);
      assert.equal(await copied(record.code), "https://example.com/before");

      closeRedis();
      await db.dynamicCode.updateMany({
        where: { code: record.code },
        data: { destinationUrl: "https://example.com/after" },
      });
      await invalidateResolution(record.code); // what every change of a code calls once committed
      assert.equal(await copied(record.code), "https://example.com/after");
    } finally {
      reader.disconnect();
      closeRedis();
      await db.$disconnect();
    }
  });
});
