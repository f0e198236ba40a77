-- CreateTable
CREATE TABLE "ScanDaily" (
    "dynamicCodeId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "dimension" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "scans" INTEGER NOT NULL,
    "uniqueScans" INTEGER NOT NULL,

    PRIMARY KEY ("dynamicCodeId", "dimension", "day", "value")
);

-- CreateIndex
CREATE INDEX "ScanEvent_dynamicCodeId_id_idx" ON "ScanEvent"("dynamicCodeId", "id");

-- Backfill: the rollups of every scan recorded before this migration.
INSERT INTO "ScanDaily" ("dynamicCodeId", "day", "dimension", "value", "scans", "uniqueScans")
SELECT "dynamicCodeId", "day", 'total', '', COUNT(*), SUM(CASE WHEN "unique" THEN 1 ELSE 0 END) FROM "ScanEvent" GROUP BY "dynamicCodeId", "day"
UNION ALL
SELECT "dynamicCodeId", "day", 'country', "country", COUNT(*), SUM(CASE WHEN "unique" THEN 1 ELSE 0 END) FROM "ScanEvent" GROUP BY "dynamicCodeId", "day", "country"
UNION ALL
SELECT "dynamicCodeId", "day", 'device', "device", COUNT(*), SUM(CASE WHEN "unique" THEN 1 ELSE 0 END) FROM "ScanEvent" GROUP BY "dynamicCodeId", "day", "device"
UNION ALL
SELECT "dynamicCodeId", "day", 'os', "os", COUNT(*), SUM(CASE WHEN "unique" THEN 1 ELSE 0 END) FROM "ScanEvent" GROUP BY "dynamicCodeId", "day", "os"
UNION ALL
SELECT "dynamicCodeId", "day", 'browser', "browser", COUNT(*), SUM(CASE WHEN "unique" THEN 1 ELSE 0 END) FROM "ScanEvent" GROUP BY "dynamicCodeId", "day", "browser";
