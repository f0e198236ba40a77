// The quarter-hour rollups' migration on a database that holds scans made under the old schema
// (on the backend of the run): a new database gets every migration before `scan_quarter`, then
// scans as the old writer stored them (raw events and their daily rollups, at quarter-hour
// edges, a millisecond before them and across midnight), then the migration. Every daily total
// and unique count is unchanged, the quarters add up to each UTC day's rollups in every
// dimension, and each scan is counted in the quarter of its instant.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dialect, migrationIndex, migrations, scratchDatabase, script } from "../scratch-database";

const target = migrationIndex("scan_quarter");

// Instants at and around quarter-hour edges and UTC midnights, several visitors and values.
const INSTANTS = [
  "2026-03-01T00:00:00.000Z",
  "2026-03-01T00:14:59.999Z",
  "2026-03-01T00:15:00.000Z",
  "2026-03-01T09:44:59.999Z",
  "2026-03-01T09:45:00.000Z",
  "2026-03-01T23:59:59.999Z",
  "2026-03-02T00:00:00.000Z",
  "2026-03-29T01:00:00.000Z",
  "2026-10-25T00:59:59.999Z",
  "2026-11-24T18:29:30.500Z",
];

describe("the quarter-hour rollups' migration on a database with scans", () => {
  it("keeps every UTC day's total and unique counts, and puts each scan in its instant's quarter", async () => {
    assert.ok(target > 0, "the scan_quarter migration exists");
    const db = await scratchDatabase();
    try {
      for (const m of migrations.slice(0, target)) await db.exec(script(m));
      type Event = [id: string, code: string, at: number, visitor: number, country: string, device: string];
      const events: Event[] = [];
      for (const [c, code] of ["dyn_a", "dyn_b"].entries())
        for (const [i, at] of INSTANTS.entries())
          for (let n = 0; n < 1 + ((i + c) % 3); n++)
            events.push([
              `scan_${c}_${i}_${n}`,
              code,
              Date.parse(at) + n,
              (i + n) % 2,
              ["DE", "IN", "US"][(i + n) % 3],
              ["mobile", "desktop"][n % 2],
            ]);
      // The old writer's rows: unique = first of its visitor on its UTC day.
      const seen = new Set<string>();
      const stored = events.map(([id, code, at, visitor, country, device]) => {
        const day = new Date(at).toISOString().slice(0, 10);
        const unique = !seen.has(`${code}|${day}|${visitor}`);
        seen.add(`${code}|${day}|${visitor}`);
        const scannedAt =
          dialect === "sqlite"
            ? `${new Date(at).toISOString().slice(0, 23)}+00:00`
            : new Date(at).toISOString().slice(0, 23).replace("T", " ");
        return {
          row: [
            id,
            code,
            scannedAt,
            day,
            country,
            device,
            "iOS",
            "Safari",
            `visitor${visitor}`,
            unique,
            "https://example.com/",
          ],
          code,
          at,
          day,
          unique,
          country,
          device,
        };
      });
      await db.insert(
        "ScanEvent",
        stored.map((s) => s.row),
      );
      // Its daily rollups, as they stood before the migration.
      const daily = new Map<string, [number, number]>();
      for (const s of stored)
        for (const [dimension, value] of [
          ["total", ""],
          ["country", s.country],
          ["device", s.device],
          ["os", "iOS"],
          ["browser", "Safari"],
        ]) {
          const key = `${s.code}|${s.day}|${dimension}|${value}`;
          const [scans, unique] = daily.get(key) ?? [0, 0];
          daily.set(key, [scans + 1, unique + Number(s.unique)]);
        }
      await db.insert(
        "ScanDaily",
        [...daily].map(([key, [scans, unique]]) => [
          ...key.split("|").slice(0, 1),
          key.split("|")[1],
          key.split("|")[2],
          key.split("|")[3],
          scans,
          unique,
        ]),
      );
      const before = await db.rows<{
        dynamicCodeId: string;
        day: string;
        dimension: string;
        value: string;
        scans: number;
        uniqueScans: number;
      }>(`SELECT * FROM "ScanDaily" ORDER BY 1, 2, 3, 4`);

      await db.exec(script(migrations[target]));

      // The daily rollups are unchanged…
      assert.deepEqual(await db.rows(`SELECT * FROM "ScanDaily" ORDER BY 1, 2, 3, 4`), before);
      // …and each UTC day's quarters add up to them, in every dimension and value.
      const perDay = await db.rows<{
        dynamicCodeId: string;
        day: number;
        dimension: string;
        value: string;
        scans: number | string;
        uniqueScans: number | string;
      }>(
        `SELECT "dynamicCodeId", "quarter" / 96 AS "day", "dimension", "value", SUM("scans") AS "scans", SUM("uniqueScans") AS "uniqueScans" FROM "ScanQuarter" GROUP BY 1, 2, 3, 4`,
      );
      assert.deepEqual(
        new Map(
          perDay.map((r) => [
            `${r.dynamicCodeId}|${new Date(Number(r.day) * 86_400_000).toISOString().slice(0, 10)}|${r.dimension}|${r.value}`,
            [Number(r.scans), Number(r.uniqueScans)],
          ]),
        ),
        daily,
      );
      // Each scan in the quarter of its instant (the edges: 00:14:59.999 in the first, 00:15:00.000 in the second).
      const quarters = new Map<string, number>();
      for (const s of stored)
        quarters.set(
          `${s.code}|${Math.floor(s.at / 900_000)}`,
          (quarters.get(`${s.code}|${Math.floor(s.at / 900_000)}`) ?? 0) + 1,
        );
      const totals = await db.rows<{ dynamicCodeId: string; quarter: number; scans: number }>(
        `SELECT "dynamicCodeId", "quarter", "scans" FROM "ScanQuarter" WHERE "dimension" = 'total'`,
      );
      assert.deepEqual(new Map(totals.map((r) => [`${r.dynamicCodeId}|${r.quarter}`, Number(r.scans)])), quarters);
      assert.equal(
        totals.reduce((n, r) => n + Number(r.scans), 0),
        events.length,
      );
    } finally {
      await db.close();
    }
  });
});

// SQLite only: the rollups and visitor-days rebuilt as WITHOUT ROWID tables keep every row.
describe("the rollups' WITHOUT ROWID migration", () => {
  it("keeps every row of ScanDaily, ScanQuarter and ScanVisitorDay (SQLite; PostgreSQL has no such migration)", async () => {
    const rebuild = migrationIndex("rollups_without_rowid");
    if (dialect === "postgres") return assert.equal(rebuild, -1);
    assert.ok(rebuild > 0, "the rollups_without_rowid migration exists");
    const db = await scratchDatabase();
    try {
      for (const m of migrations.slice(0, rebuild)) await db.exec(script(m));
      const rows = {
        ScanDaily: ["dyn_a", "dyn_b"].flatMap((code, c) =>
          ["2026-03-01", "2026-03-02"].flatMap((day, d) =>
            [
              ["total", ""],
              ["country", "IN"],
              ["device", "mobile"],
            ].map(([dimension, value], v) => [code, day, dimension, value, 10 + c + d + v, 1 + v]),
          ),
        ),
        ScanQuarter: ["dyn_a", "dyn_b"].flatMap((code, c) =>
          [1_966_000, 1_966_001, 1_966_095].flatMap((quarter, q) =>
            [
              ["total", ""],
              ["os", "iOS"],
            ].map(([dimension, value], v) => [code, quarter, dimension, value, 3 + c + q + v, v]),
          ),
        ),
        ScanVisitorDay: ["dyn_a", "dyn_b"].flatMap((code) =>
          ["2026-03-01", "2026-03-02"].flatMap((day) =>
            ["visitor0", "visitor1"].map((visitor) => [code, day, visitor]),
          ),
        ),
      };
      // Sorted here: a rowid table and a WITHOUT ROWID one list their rows in different orders.
      const read = async (table: string) =>
        (await db.rows(`SELECT * FROM "${table}"`)).map((r) => JSON.stringify(r)).sort();
      const before: Record<string, unknown[]> = {};
      for (const [table, values] of Object.entries(rows)) {
        await db.insert(table, values);
        before[table] = await read(table);
        assert.equal(before[table].length, values.length);
      }
      await db.exec(script(migrations[rebuild]));
      for (const table of Object.keys(rows)) {
        assert.deepEqual(await read(table), before[table], table);
        const [{ sql }] = await db.rows<{ sql: string }>(
          `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = '${table}'`,
        );
        assert.match(sql, /WITHOUT ROWID/, table);
      }
    } finally {
      await db.close();
    }
  });
});
