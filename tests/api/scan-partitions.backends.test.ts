// Raw scan events across months (issue 18, "Flat under growth"): on PostgreSQL ScanEvent is
// partitioned by month (server/scan/partitions.ts); on SQLite it is one table, and every
// assertion but the partitions' own holds there too. Scans are written through the real batch
// writer at chosen instants: in a far past and a far future month (no partition: the default
// one takes them), then that future month's partition is created (its scans move in), and
// 2,500 scans alternate between two months, so that the export's pages (2,000 rows, keyset by
// id) walk both partitions at once.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { db, dialect } from "../../server/platform/db";
import { newScan } from "../../server/scan/rows";
import { writeScans } from "../../server/scan/write";
import { DEFAULT_PARTITION, ensureScanPartitions, scanPartitions } from "../../server/scan/partitions";
import { http, personalKey } from "../helpers";
import { UA } from "../agents";

const IPHONE = UA.iphone;
const PAST = Date.parse("2003-02-14T10:00:00.000Z");
const FUTURE = Date.parse("2041-05-31T23:59:59.999Z");
const NEXT_MONTH = Date.parse("2041-06-01T00:00:00.000Z");

/** Which table holds each of a code's scans (PostgreSQL), by scan time. */
async function homes(dynamicCodeId: string): Promise<Map<string, string>> {
  const rows = await db.$queryRawUnsafe<{ at: string; home: string }[]>(
    `SELECT to_char("scannedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, tableoid::regclass::text AS home FROM "ScanEvent" WHERE "dynamicCodeId" = $1`,
    dynamicCodeId,
  );
  return new Map(rows.map((r) => [r.at, r.home.replace(/"/g, "")]));
}

describe("scan events across month partitions", () => {
  let key = "";
  let code = "";
  let id = "";
  const scanAt = (at: number, visitor = 1) =>
    newScan({
      dynamicCodeId: id,
      scannedAt: at,
      destinationUrl: "https://example.com/months",
      userAgent: IPHONE,
      address: `198.51.100.${visitor}`,
      countryHeader: "DE",
    });
  const exported = async (from: string, to: string) => {
    const r = await fetch(`${process.env.BASE_URL}/v1/dynqrcodes/${code}/analytics/export?from=${from}&to=${to}`, {
      headers: { "x-api-key": key },
    });
    assert.equal(r.status, 200);
    return (parse(await r.text()) as string[][]).slice(1);
  };

  before(async () => {
    ({ key } = await personalKey());
    const r = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: "https://example.com/months", name: "Months" },
    });
    code = (r.body as { created: { code: string }[] }).created[0].code;
    ({ id } = await db.dynamicCode.findFirstOrThrow({ where: { code } }));
  });

  it("has this month's partition and the next two, and a default one", async () => {
    if (dialect !== "postgres")
      return assert.deepEqual(await ensureScanPartitions(new Date()), [], "SQLite has no partitions");
    const names = (await scanPartitions()).map((p) => p.name);
    const now = new Date();
    for (let ahead = 0; ahead <= 2; ahead++) {
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + ahead, 1));
      assert.ok(
        names.includes(`ScanEvent_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, "0")}`),
        `${month.toISOString()} in ${names}`,
      );
    }
    const all = await db.$queryRawUnsafe<{ name: string }[]>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"ScanEvent"'::regclass`,
    );
    assert.ok(all.some((p) => p.name === DEFAULT_PARTITION));
  });

  it("stores a scan of a far past and of a far future month; creating that month moves its scans in", async () => {
    assert.equal(await writeScans([scanAt(PAST), scanAt(FUTURE)]), 2);
    assert.deepEqual(
      (await exported("2003-02-14", "2003-02-14")).map((row) => row[0]),
      ["2003-02-14T10:00:00Z"],
    );
    assert.deepEqual(
      (await exported("2041-05-31", "2041-05-31")).map((row) => row[0]),
      ["2041-05-31T23:59:59Z"],
    );
    if (dialect !== "postgres") return;
    assert.deepEqual([...(await homes(id)).values()], [DEFAULT_PARTITION, DEFAULT_PARTITION]);
    assert.deepEqual(await ensureScanPartitions(new Date(FUTURE)), [
      "ScanEvent_2041_05",
      "ScanEvent_2041_06",
      "ScanEvent_2041_07",
    ]);
    assert.deepEqual(await ensureScanPartitions(new Date(FUTURE)), [], "once");
    const after = await homes(id);
    assert.equal(after.get("2041-05-31T23:59:59.999Z"), "ScanEvent_2041_05");
    assert.equal(after.get("2003-02-14T10:00:00.000Z"), DEFAULT_PARTITION);
  });

  it("exports every scan once, in id order, across a month boundary", async () => {
    // Alternating months: consecutive ids sit in different partitions.
    const batch = Array.from({ length: 2500 }, (_, i) =>
      scanAt(i % 2 ? NEXT_MONTH + i * 1000 : FUTURE - 1 - i * 1000, i % 5),
    );
    for (let i = 0; i < batch.length; i += 500) assert.equal(await writeScans(batch.slice(i, i + 500)), 500);
    const rows = await exported("2041-05-31", "2041-06-01");
    assert.equal(rows.length, 2501);
    const times = (list: number[]) => list.map((ms) => `${new Date(ms).toISOString().slice(0, 19)}Z`);
    assert.deepEqual(
      rows.map((row) => row[0]),
      times([FUTURE, ...batch.map((s) => s.scannedAt)]),
      "each scan once, oldest id first",
    );
    if (dialect === "postgres") {
      const where = await homes(id);
      assert.equal(where.get(new Date(NEXT_MONTH + 1000).toISOString()), "ScanEvent_2041_06");
      assert.equal(where.get(new Date(FUTURE - 1 - 2000).toISOString()), "ScanEvent_2041_05");
    }
    // Written again as a spool replayed after a crash writes them (read back: not fresh): nothing is stored twice.
    assert.equal(await writeScans(batch.slice(0, 500).map((scan) => ({ ...scan, fresh: false }))), 0);
    assert.equal(await db.scanEvent.count({ where: { dynamicCodeId: id } }), 2502);
    const analytics = await http("GET", `/v1/dynqrcodes/${code}/analytics?from=2041-05-31&to=2041-06-01`, { key });
    assert.equal((analytics.body as { total_scans: number }).total_scans, 2501);
  });
});
