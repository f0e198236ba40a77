-- ScanEvent without its foreign key to DynamicCode, as on PostgreSQL (where its check cost every
-- scan written a lookup and a row lock of its code); its cascade never ran: codes are only ever
-- soft-deleted. SQLite cannot drop a key: the table is rebuilt, with the same columns, key and
-- index, every row copied (in one transaction, holding the write lock while it copies).
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ScanEvent" (
    "id" TEXT NOT NULL,
    "dynamicCodeId" TEXT NOT NULL,
    "scannedAt" DATETIME NOT NULL,
    "day" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "device" TEXT NOT NULL,
    "os" TEXT NOT NULL,
    "browser" TEXT NOT NULL,
    "visitorHash" TEXT NOT NULL,
    "unique" BOOLEAN NOT NULL,
    "destinationUrl" TEXT NOT NULL,

    PRIMARY KEY ("id", "scannedAt")
);
INSERT INTO "new_ScanEvent" ("browser", "country", "day", "destinationUrl", "device", "dynamicCodeId", "id", "os", "scannedAt", "unique", "visitorHash") SELECT "browser", "country", "day", "destinationUrl", "device", "dynamicCodeId", "id", "os", "scannedAt", "unique", "visitorHash" FROM "ScanEvent";
DROP TABLE "ScanEvent";
ALTER TABLE "new_ScanEvent" RENAME TO "ScanEvent";
CREATE INDEX "ScanEvent_dynamicCodeId_id_idx" ON "ScanEvent"("dynamicCodeId", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
