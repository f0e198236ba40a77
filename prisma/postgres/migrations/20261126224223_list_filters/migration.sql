-- AlterTable
ALTER TABLE "DynamicCode" ADD COLUMN     "searchName" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "searchUrl" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "StaticCode" ADD COLUMN     "searchName" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "searchUrl" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "DynamicCode_userId_status_id_idx" ON "DynamicCode"("userId", "status", "id");

-- CreateIndex
CREATE INDEX "DynamicCode_teamId_status_id_idx" ON "DynamicCode"("teamId", "status", "id");

-- Backfill: the lists' `search` reads the folded columns. The app folds with JavaScript's
-- Unicode lower case (server/platform/searchFold.ts); SQL's lower() is the nearest here (on
-- SQLite it folds ASCII only), and every later write of a name or URL stores the app's folding.
UPDATE "StaticCode" SET "searchName" = lower("name"), "searchUrl" = lower("url");
UPDATE "DynamicCode" SET "searchName" = lower("name"), "searchUrl" = lower("destinationUrl");
