-- ScanEvent without its foreign key to DynamicCode (its cascade never ran: codes are only ever
-- soft-deleted), rebuilt as a WITHOUT ROWID table stored in the order of its key: a scan's
-- insert updates two B-trees instead of three (the rowid table, its key and the code's index).
-- Same columns, every row copied.
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
) WITHOUT ROWID;
INSERT INTO "new_ScanEvent" ("browser", "country", "day", "destinationUrl", "device", "dynamicCodeId", "id", "os", "scannedAt", "unique", "visitorHash") SELECT "browser", "country", "day", "destinationUrl", "device", "dynamicCodeId", "id", "os", "scannedAt", "unique", "visitorHash" FROM "ScanEvent";
DROP TABLE "ScanEvent";
ALTER TABLE "new_ScanEvent" RENAME TO "ScanEvent";
CREATE INDEX "ScanEvent_dynamicCodeId_id_idx" ON "ScanEvent"("dynamicCodeId", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
