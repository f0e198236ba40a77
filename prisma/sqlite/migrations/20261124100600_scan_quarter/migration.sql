-- CreateTable
CREATE TABLE "ScanQuarter" (
    "dynamicCodeId" TEXT NOT NULL,
    "quarter" INTEGER NOT NULL,
    "dimension" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "scans" INTEGER NOT NULL,
    "uniqueScans" INTEGER NOT NULL,

    PRIMARY KEY ("dynamicCodeId", "dimension", "quarter", "value")
);

-- Backfill: the quarter-hour rollups of every scan recorded before this migration, from the raw
-- events (the same source as ScanDaily's backfill, so both count every stored scan once).
INSERT INTO "ScanQuarter" ("dynamicCodeId", "quarter", "dimension", "value", "scans", "uniqueScans")
SELECT "dynamicCodeId", "quarter", 'total', '', COUNT(*), SUM(CASE WHEN "unique" THEN 1 ELSE 0 END) FROM (SELECT *, CAST(strftime('%s', "scannedAt") AS INTEGER) / 900 AS "quarter" FROM "ScanEvent") e GROUP BY "dynamicCodeId", "quarter"
UNION ALL
SELECT "dynamicCodeId", "quarter", 'country', "country", COUNT(*), SUM(CASE WHEN "unique" THEN 1 ELSE 0 END) FROM (SELECT *, CAST(strftime('%s', "scannedAt") AS INTEGER) / 900 AS "quarter" FROM "ScanEvent") e GROUP BY "dynamicCodeId", "quarter", "country"
UNION ALL
SELECT "dynamicCodeId", "quarter", 'device', "device", COUNT(*), SUM(CASE WHEN "unique" THEN 1 ELSE 0 END) FROM (SELECT *, CAST(strftime('%s', "scannedAt") AS INTEGER) / 900 AS "quarter" FROM "ScanEvent") e GROUP BY "dynamicCodeId", "quarter", "device"
UNION ALL
SELECT "dynamicCodeId", "quarter", 'os', "os", COUNT(*), SUM(CASE WHEN "unique" THEN 1 ELSE 0 END) FROM (SELECT *, CAST(strftime('%s', "scannedAt") AS INTEGER) / 900 AS "quarter" FROM "ScanEvent") e GROUP BY "dynamicCodeId", "quarter", "os"
UNION ALL
SELECT "dynamicCodeId", "quarter", 'browser', "browser", COUNT(*), SUM(CASE WHEN "unique" THEN 1 ELSE 0 END) FROM (SELECT *, CAST(strftime('%s', "scannedAt") AS INTEGER) / 900 AS "quarter" FROM "ScanEvent") e GROUP BY "dynamicCodeId", "quarter", "browser";
