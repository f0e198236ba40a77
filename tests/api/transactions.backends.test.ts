// A transaction that reads and then writes must not fail because another connection committed
// in between. On SQLite a transaction begun with a plain BEGIN does (SQLITE_BUSY at its first
// write, "Operation has timed out"); server/platform/db.ts begins Prisma's with BEGIN IMMEDIATE. The
// other connection here is the running server, a process of its own, writing through /v1.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { Client } from "pg";
import { db, dialect, writeTransaction } from "../../server/platform/db";
import { pgConfigFromUrl, sqliteFileOf } from "../../server/platform/database-url";
import { env } from "../../server/platform/env";
import { http, personalKey } from "../helpers";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("transactions and other connections' writes", () => {
  it("a write committed elsewhere between a transaction's read and its write fails neither", async () => {
    const { user, key } = await personalKey();
    const created = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: "https://example.com/t", name: "Before" },
    });
    assert.equal(created.status, 201);
    const { code } = (created.body as { created: { code: string }[] }).created[0];

    let patched: Promise<Awaited<ReturnType<typeof http>>> | undefined;
    await db.$transaction(async (tx) => {
      const read = await tx.user.findUniqueOrThrow({ where: { id: user.id } });
      // The server writes now, on its own connection, while this transaction is open; it is
      // not awaited here: with the write lock held, the server waits for this commit.
      patched = http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { name: "Renamed elsewhere" } });
      await sleep(400);
      await tx.user.update({ where: { id: user.id }, data: { name: `${read.name} (changed in a transaction)` } });
    });

    const reply = await patched!;
    assert.equal(reply.status, 200, reply.text);
    assert.equal(
      (await db.user.findUniqueOrThrow({ where: { id: user.id } })).name,
      "Test User (changed in a transaction)",
    );
    assert.equal((await db.dynamicCode.findFirstOrThrow({ where: { code } })).name, "Renamed elsewhere");
  });

  it("a driver-level write on the same thread waits for a Prisma transaction without blocking the event loop", async () => {
    const { user } = await personalKey();
    // In the driver's form for many rows (server/platform/db.ts, RunEach): one row, [name, id].
    const rename = {
      sqlite: `UPDATE "User" SET "name" = ? WHERE "id" = ?`,
      postgres: `UPDATE "User" u SET "name" = e ->> 0 FROM jsonb_array_elements($1::jsonb) AS e WHERE u."id" = e ->> 1`,
    };
    let driverWrite: Promise<unknown> | undefined;
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    await db.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { name: "First, in the transaction" } });
      // Retention writes so on the server's main thread (and the recorder, when its thread is not running).
      driverWrite = writeTransaction((runEach) => runEach(rename, [["Second, through the driver", user.id]]));
      await sleep(300);
    });
    await driverWrite;
    clearInterval(ticker);
    // The timer kept running while the driver's write waited for the lock: nothing blocked the thread.
    assert.ok(ticks >= 15, `the event loop ran ${ticks} timer turns in 300 ms`);
    assert.equal((await db.user.findUniqueOrThrow({ where: { id: user.id } })).name, "Second, through the driver");
  });

  it("a transaction that waited out another connection's write lock still runs, and so do the ones after it", async () => {
    const { user } = await personalKey();
    // Another connection takes the write lock and keeps it past the lock wait (5 s: on SQLite
    // Prisma's BEGIN IMMEDIATE gives up, and the transaction begins deferred instead).
    const holder = dialect === "sqlite" ? sqliteHolder() : await postgresHolder();
    await holder.lock();
    await db.$transaction(
      async (tx) => {
        await holder.release();
        await tx.user.update({ where: { id: user.id }, data: { name: "After the wait" } });
      },
      { maxWait: 10_000 },
    );
    holder.close();
    // Had the failed BEGIN kept the adapter's own lock, no transaction could begin again.
    await db.$transaction(async (tx) => tx.user.update({ where: { id: user.id }, data: { name: "And the next one" } }));
    assert.equal((await db.user.findUniqueOrThrow({ where: { id: user.id } })).name, "And the next one");
  });
});

function sqliteHolder() {
  const connection = new Database(sqliteFileOf(env.databaseUrl), { fileMustExist: true });
  return {
    lock: async () => void connection.exec("BEGIN IMMEDIATE"),
    release: async () => void connection.exec("ROLLBACK"),
    close: () => connection.close(),
  };
}

async function postgresHolder() {
  const client = new Client(pgConfigFromUrl(env.databaseUrl));
  await client.connect();
  return {
    lock: async () => void (await client.query(`BEGIN; LOCK TABLE "User" IN EXCLUSIVE MODE`)),
    release: async () => void (await client.query("ROLLBACK")),
    close: () => void client.end(),
  };
}
