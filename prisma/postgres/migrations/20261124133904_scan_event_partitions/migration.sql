-- ScanEvent partitioned by month of "scannedAt" (issue 18, "Flat under growth"): the server
-- creates each month's partition ahead of time and drops whole months for
-- SCAN_EVENT_RETENTION_DAYS (server/scan/partitions.ts). A partitioned table's primary key
-- must hold the partition key: ("id", "scannedAt"). Every existing row is copied into its
-- month; a scan outside every month created lands in "ScanEvent_default", never refused.
-- The whole script is one transaction.
ALTER TABLE "ScanEvent" RENAME TO "ScanEvent_unpartitioned";
ALTER TABLE "ScanEvent_unpartitioned" RENAME CONSTRAINT "ScanEvent_pkey" TO "ScanEvent_unpartitioned_pkey";
ALTER TABLE "ScanEvent_unpartitioned" DROP CONSTRAINT "ScanEvent_dynamicCodeId_fkey";
DROP INDEX "ScanEvent_dynamicCodeId_id_idx";

CREATE TABLE "ScanEvent" (
    "id" TEXT NOT NULL,
    "dynamicCodeId" TEXT NOT NULL,
    "scannedAt" TIMESTAMP(3) NOT NULL,
    "day" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "device" TEXT NOT NULL,
    "os" TEXT NOT NULL,
    "browser" TEXT NOT NULL,
    "visitorHash" TEXT NOT NULL,
    "unique" BOOLEAN NOT NULL,
    "destinationUrl" TEXT NOT NULL,

    CONSTRAINT "ScanEvent_pkey" PRIMARY KEY ("id","scannedAt")
) PARTITION BY RANGE ("scannedAt");

CREATE TABLE "ScanEvent_default" PARTITION OF "ScanEvent" DEFAULT;

-- The months of the stored scans, and this month and the next two (as the server keeps them).
DO $$
DECLARE
  month timestamp;
BEGIN
  FOR month IN
    SELECT DISTINCT m FROM (
      SELECT date_trunc('month', "scannedAt") AS m FROM "ScanEvent_unpartitioned"
      UNION ALL
      SELECT date_trunc('month', (now() AT TIME ZONE 'UTC') + make_interval(months => n)) FROM generate_series(0, 2) AS n
    ) months ORDER BY m
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "ScanEvent" FOR VALUES FROM (%L) TO (%L)',
      'ScanEvent_' || to_char(month, 'YYYY_MM'), month, month + interval '1 month');
  END LOOP;
END $$;

INSERT INTO "ScanEvent" ("id", "dynamicCodeId", "scannedAt", "day", "country", "device", "os", "browser", "visitorHash", "unique", "destinationUrl")
SELECT "id", "dynamicCodeId", "scannedAt", "day", "country", "device", "os", "browser", "visitorHash", "unique", "destinationUrl" FROM "ScanEvent_unpartitioned";
DROP TABLE "ScanEvent_unpartitioned";

-- CreateIndex
CREATE INDEX "ScanEvent_dynamicCodeId_id_idx" ON "ScanEvent"("dynamicCodeId", "id");

-- AddForeignKey
ALTER TABLE "ScanEvent" ADD CONSTRAINT "ScanEvent_dynamicCodeId_fkey" FOREIGN KEY ("dynamicCodeId") REFERENCES "DynamicCode"("id") ON DELETE CASCADE ON UPDATE CASCADE;
