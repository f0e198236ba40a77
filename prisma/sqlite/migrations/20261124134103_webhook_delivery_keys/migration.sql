-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_WebhookDelivery" (
    "id" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "responseStatus" INTEGER,
    "responseBody" TEXT,
    "latencyMs" INTEGER,
    "lastAttemptAt" DATETIME,
    "nextAttemptAt" DATETIME NOT NULL,
    "claimedUntil" DATETIME,
    "claimedBy" TEXT,

    PRIMARY KEY ("endpointId", "id")
);
INSERT INTO "new_WebhookDelivery" ("attempts", "claimedBy", "claimedUntil", "endpointId", "eventId", "id", "lastAttemptAt", "latencyMs", "nextAttemptAt", "responseBody", "responseStatus", "status") SELECT "attempts", "claimedBy", "claimedUntil", "endpointId", "eventId", "id", "lastAttemptAt", "latencyMs", "nextAttemptAt", "responseBody", "responseStatus", "status" FROM "WebhookDelivery";
DROP TABLE "WebhookDelivery";
ALTER TABLE "new_WebhookDelivery" RENAME TO "WebhookDelivery";
CREATE INDEX "WebhookDelivery_endpointId_status_nextAttemptAt_idx" ON "WebhookDelivery"("endpointId", "status", "nextAttemptAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
