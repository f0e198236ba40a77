// Several scan writers over the same codes at once (issue 38, "Writers that scale with
// instances"): each instance's writer upserts the same rollup rows (ScanDaily, ScanQuarter) and
// visitor marks. Taken in arrival order, two batches over the same codes locked them in
// different orders and PostgreSQL broke the cycle with a deadlock (a second's wait and a batch
// written again, each time). Here four writers send batches over the same 40 codes, each in
// its own order of codes, through the real batch writer on separate connections: none fails,
// PostgreSQL counts no deadlock in this database, and the rollups equal the stored scans
// (on SQLite, which has one writer at a time, the rollups only).
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { db, dialect, selectRows } from "../../server/platform/db";
import { newScan, type BufferedScan } from "../../server/scan/rows";
import { writeScans } from "../../server/scan/write";
import { http, personalKey } from "../helpers";

const AGENTS = [
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
];
const COUNTRIES = ["DE", "IN", "US", "NZ", "JP", "FR", "BR"];
const WRITERS = 4;
const BATCHES = 6;
const BATCH = 500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const deadlocks = async () =>
  Number(
    (
      await selectRows<{ n: string }>(
        {
          sqlite: "SELECT 0 AS n",
          postgres: "SELECT deadlocks::text AS n FROM pg_stat_database WHERE datname = current_database()",
        },
        [],
      )
    )[0].n,
  );

describe("scan writers over the same codes at once", () => {
  const ids: string[] = [];

  before(async () => {
    const { key } = await personalKey();
    const r = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: {
        dynqrcodes: Array.from({ length: 40 }, (_, i) => ({
          destination_url: `https://example.com/w${i}`,
          name: `W${i}`,
        })),
      },
    });
    assert.equal(r.status, 201, r.text);
    const codes = (r.body as { created: { code: string }[] }).created.map((c) => c.code);
    for (const code of codes) ids.push((await db.dynamicCode.findFirstOrThrow({ where: { code } })).id);
  });

  it("write concurrently without a deadlock, and the rollups equal the scans", async () => {
    const now = Date.now();
    // Writer w visits the codes in an order of its own (rotated and, for odd w, reversed), so
    // that the same rows arrive in different orders in concurrent batches.
    const batchOf = (writer: number, batch: number): BufferedScan[] => {
      const order = ids.map((_, i) => ids[(i + writer * 7) % ids.length]);
      if (writer % 2 === 1) order.reverse();
      return Array.from({ length: BATCH }, (_, i) =>
        newScan({
          dynamicCodeId: order[i % order.length],
          scannedAt: now - 1000 + batch,
          destinationUrl: "https://example.com/w",
          userAgent: AGENTS[(i + writer) % AGENTS.length],
          address: `198.51.${writer}.${(i * 7 + batch) % 250}`,
          countryHeader: COUNTRIES[(i + batch) % COUNTRIES.length],
        }),
      );
    };
    const before = await deadlocks();
    const failures: unknown[] = [];
    // SQLite has one writer connection a process (and one writer a file at a time): there the
    // writers take turns, and only the rollups are checked.
    let turn = Promise.resolve();
    const write = (scans: BufferedScan[]) =>
      dialect === "postgres"
        ? writeScans(scans)
        : (turn = turn.then(() => writeScans(scans).then(() => undefined))).then(() => BATCH);
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        for (let batch = 0; batch < BATCHES; batch++) {
          const scans = batchOf(writer, batch);
          await write(scans).then(
            (stored) => assert.equal(stored, BATCH),
            (error: unknown) => failures.push(error),
          );
        }
      }),
    );
    assert.deepEqual(
      failures.map((e) => String((e as Error).message)),
      [],
      "no batch failed",
    );
    if (dialect === "postgres") {
      // The statistics reach pg_stat_database within a second of each transaction's end.
      await sleep(1500);
      assert.equal((await deadlocks()) - before, 0, "no deadlock in this database");
    }
    const counted = await db.scanEvent.groupBy({
      by: ["dynamicCodeId"],
      where: { dynamicCodeId: { in: ids } },
      _count: { _all: true },
    });
    const daily = await db.scanDaily.groupBy({
      by: ["dynamicCodeId", "dimension"],
      where: { dynamicCodeId: { in: ids } },
      _sum: { scans: true },
    });
    const quarters = await db.scanQuarter.groupBy({
      by: ["dynamicCodeId", "dimension"],
      where: { dynamicCodeId: { in: ids } },
      _sum: { scans: true },
    });
    assert.equal(
      counted.reduce((sum, c) => sum + c._count._all, 0),
      WRITERS * BATCHES * BATCH,
    );
    for (const c of counted) {
      for (const rollup of [daily, quarters])
        for (const dimension of ["total", "country", "device", "os", "browser"])
          assert.equal(
            rollup.find((r) => r.dynamicCodeId === c.dynamicCodeId && r.dimension === dimension)?._sum.scans,
            c._count._all,
            `${dimension} of ${c.dynamicCodeId}`,
          );
    }
  });
});
