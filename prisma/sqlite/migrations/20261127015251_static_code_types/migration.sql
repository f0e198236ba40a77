-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_StaticCode" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT,
    "teamId" TEXT,
    "createdById" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'url',
    "url" TEXT,
    "content" TEXT,
    "style" TEXT NOT NULL DEFAULT '{}',
    "reviewStatus" TEXT NOT NULL DEFAULT 'active',
    "reviewedById" TEXT,
    "reviewedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "searchName" TEXT NOT NULL DEFAULT '',
    "searchUrl" TEXT NOT NULL DEFAULT '',
    "metadata" TEXT,
    "externalId" TEXT,
    CONSTRAINT "StaticCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "StaticCode_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "StaticCode_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "StaticCode_reviewedById_fkey" FOREIGN KEY ("reviewedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_StaticCode" ("apiKeyId", "createdAt", "createdById", "externalId", "id", "metadata", "name", "reviewStatus", "reviewedAt", "reviewedById", "searchName", "searchUrl", "style", "teamId", "updatedAt", "url", "userId") SELECT "apiKeyId", "createdAt", "createdById", "externalId", "id", "metadata", "name", "reviewStatus", "reviewedAt", "reviewedById", "searchName", "searchUrl", "style", "teamId", "updatedAt", "url", "userId" FROM "StaticCode";
DROP TABLE "StaticCode";
ALTER TABLE "new_StaticCode" RENAME TO "StaticCode";
CREATE INDEX "StaticCode_userId_id_idx" ON "StaticCode"("userId", "id");
CREATE INDEX "StaticCode_teamId_id_idx" ON "StaticCode"("teamId", "id");
CREATE UNIQUE INDEX "StaticCode_userId_externalId_key" ON "StaticCode"("userId", "externalId");
CREATE UNIQUE INDEX "StaticCode_teamId_externalId_key" ON "StaticCode"("teamId", "externalId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- The table was rebuilt (SQLite cannot drop NOT NULL in place): its library-version triggers
-- (20261122070932_library_version) went with the old one and are made again, unchanged.
CREATE TRIGGER "StaticCode_library_version_insert" AFTER INSERT ON "StaticCode" FOR EACH ROW BEGIN
  UPDATE "User" SET "libraryVersion" = "libraryVersion" + 1 WHERE NEW."teamId" IS NULL AND "id" = NEW."userId";
  UPDATE "Team" SET "libraryVersion" = "libraryVersion" + 1 WHERE "id" = NEW."teamId";
END;
CREATE TRIGGER "StaticCode_library_version_update" AFTER UPDATE ON "StaticCode" FOR EACH ROW BEGIN
  UPDATE "User" SET "libraryVersion" = "libraryVersion" + 1 WHERE OLD."teamId" IS NULL AND "id" = OLD."userId";
  UPDATE "Team" SET "libraryVersion" = "libraryVersion" + 1 WHERE "id" = OLD."teamId";
  UPDATE "User" SET "libraryVersion" = "libraryVersion" + 1 WHERE NEW."teamId" IS NULL AND "id" = NEW."userId";
  UPDATE "Team" SET "libraryVersion" = "libraryVersion" + 1 WHERE "id" = NEW."teamId";
END;
CREATE TRIGGER "StaticCode_library_version_delete" AFTER DELETE ON "StaticCode" FOR EACH ROW BEGIN
  UPDATE "User" SET "libraryVersion" = "libraryVersion" + 1 WHERE OLD."teamId" IS NULL AND "id" = OLD."userId";
  UPDATE "Team" SET "libraryVersion" = "libraryVersion" + 1 WHERE "id" = OLD."teamId";
END;
