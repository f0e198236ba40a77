// The migration that partitions ScanEvent by month (`scan_event_partitions`), on a database that
// holds scans in the old layout (on the backend of the run): a new database gets every
// migration before it, then scans of two codes over 14 months (the edges of months and of a
// year, to the millisecond), then the migration. Every row is still there, unchanged; the key
// is (id, scannedAt). On PostgreSQL each scan sits in its month's partition, this month and
// the next two exist, the default partition is empty, and the code's foreign key holds.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dialect, migrationIndex, migrations, scratchDatabase, script } from "../scratch-database";

const target = migrationIndex("scan_event_partitions");
const MONTH_EDGES = [
  "2025-11-30T23:59:59.999Z",
  "2025-12-01T00:00:00.000Z",
  "2025-12-31T23:59:59.999Z",
  "2026-01-01T00:00:00.000Z",
  "2026-06-15T12:00:00.000Z",
  "2027-01-31T23:59:59.999Z",
];
const stamp = (at: number) =>
  dialect === "sqlite"
    ? `${new Date(at).toISOString().slice(0, 23)}+00:00`
    : new Date(at).toISOString().slice(0, 23).replace("T", " ");
const monthName = (at: number) => `ScanEvent_${new Date(at).toISOString().slice(0, 7).replace("-", "_")}`;

describe("the month partitions' migration on a database with scans", () => {
  it("keeps every scan, each in its month", async () => {
    assert.ok(target > 0, "the scan_event_partitions migration exists");
    const db = await scratchDatabase();
    try {
      for (const m of migrations.slice(0, target)) await db.exec(script(m));
      // The codes, for the foreign key the migration adds (their owners are not what is tested).
      if (dialect === "sqlite") await db.exec("PRAGMA foreign_keys = OFF");
      for (const code of ["dyn_a", "dyn_b"])
        await db.exec(
          `INSERT INTO "DynamicCode" ("id", "code", "createdById", "name", "destinationUrl", "status", "updatedAt") VALUES ('${code}', '${code}', 'usr_x', 'Old', 'https://example.com/', 'active', '${stamp(0)}')`,
        );
      const instants = [
        ...MONTH_EDGES.map((t) => Date.parse(t)),
        ...Array.from({ length: 400 }, (_, i) => Date.parse("2025-11-03T00:00:00Z") + i * 97_345_678),
      ];
      const rows = instants.map((at, i) => [
        `scan_${String(i).padStart(4, "0")}`,
        i % 3 ? "dyn_a" : "dyn_b",
        stamp(at),
        new Date(at).toISOString().slice(0, 10),
        "DE",
        "mobile",
        "iOS",
        "Safari",
        `visitor${i % 7}`,
        i % 7 === i,
        "https://example.com/",
      ]);
      await db.insert("ScanEvent", rows);
      const everything = `SELECT * FROM "ScanEvent" ORDER BY "id"`;
      const before = await db.rows(everything);
      assert.equal(before.length, instants.length);

      await db.exec(script(migrations[target]));

      assert.deepEqual(await db.rows(everything), before);
      if (dialect === "sqlite") {
        const key = await db.rows<{ name: string; pk: number }>(
          `SELECT "name", "pk" FROM pragma_table_info('ScanEvent') WHERE "pk" > 0 ORDER BY "pk"`,
        );
        assert.deepEqual(
          key.map((k) => k.name),
          ["id", "scannedAt"],
        );
        return;
      }
      const homes = await db.rows<{ id: string; home: string }>(
        `SELECT "id", tableoid::regclass::text AS home FROM "ScanEvent" ORDER BY "id"`,
      );
      assert.deepEqual(
        homes.map((h) => h.home.replace(/"/g, "")),
        instants.map(monthName),
      );
      const partitions = (
        await db.rows<{ name: string }>(
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"ScanEvent"'::regclass`,
        )
      ).map((p) => p.name);
      const now = new Date();
      for (let ahead = 0; ahead <= 2; ahead++)
        assert.ok(
          partitions.includes(monthName(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1))),
          `month +${ahead}`,
        );
      assert.ok(partitions.includes("ScanEvent_default"));
      assert.deepEqual(await db.rows(`SELECT count(*)::int AS n FROM "ScanEvent_default"`), [{ n: 0 }]);
      const key = await db.rows<{ column: string }>(
        `SELECT a.attname AS column FROM pg_index x JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = ANY(x.indkey) WHERE x.indrelid = '"ScanEvent"'::regclass AND x.indisprimary ORDER BY array_position(x.indkey, a.attnum)`,
      );
      assert.deepEqual(
        key.map((k) => k.column),
        ["id", "scannedAt"],
      );
      // The cascade from a code reaches every month.
      await db.exec(`SET session_replication_role = DEFAULT; DELETE FROM "DynamicCode" WHERE "id" = 'dyn_b'`);
      assert.deepEqual(await db.rows(`SELECT count(*)::int AS n FROM "ScanEvent"`), [
        { n: rows.filter((r) => r[1] === "dyn_a").length },
      ]);
    } finally {
      await db.close();
    }
  });
});
