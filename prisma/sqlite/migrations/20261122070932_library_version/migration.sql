-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Team" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "libraryVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Team_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Team" ("createdAt", "id", "name", "ownerId") SELECT "createdAt", "id", "name", "ownerId" FROM "Team";
DROP TABLE "Team";
ALTER TABLE "new_Team" RENAME TO "Team";
CREATE TABLE "new_User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "tier" TEXT NOT NULL DEFAULT 'free',
    "libraryVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_User" ("createdAt", "email", "id", "name", "passwordHash", "tier", "updatedAt") SELECT "createdAt", "email", "id", "name", "passwordHash", "tier", "updatedAt" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Every change to a library's codes raises its version, in the same transaction, whichever
-- code path made it: the API caches list pages under the version it reads in the key lookup.
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
CREATE TRIGGER "DynamicCode_library_version_insert" AFTER INSERT ON "DynamicCode" FOR EACH ROW BEGIN
  UPDATE "User" SET "libraryVersion" = "libraryVersion" + 1 WHERE NEW."teamId" IS NULL AND "id" = NEW."userId";
  UPDATE "Team" SET "libraryVersion" = "libraryVersion" + 1 WHERE "id" = NEW."teamId";
END;
CREATE TRIGGER "DynamicCode_library_version_update" AFTER UPDATE ON "DynamicCode" FOR EACH ROW BEGIN
  UPDATE "User" SET "libraryVersion" = "libraryVersion" + 1 WHERE OLD."teamId" IS NULL AND "id" = OLD."userId";
  UPDATE "Team" SET "libraryVersion" = "libraryVersion" + 1 WHERE "id" = OLD."teamId";
  UPDATE "User" SET "libraryVersion" = "libraryVersion" + 1 WHERE NEW."teamId" IS NULL AND "id" = NEW."userId";
  UPDATE "Team" SET "libraryVersion" = "libraryVersion" + 1 WHERE "id" = NEW."teamId";
END;
CREATE TRIGGER "DynamicCode_library_version_delete" AFTER DELETE ON "DynamicCode" FOR EACH ROW BEGIN
  UPDATE "User" SET "libraryVersion" = "libraryVersion" + 1 WHERE OLD."teamId" IS NULL AND "id" = OLD."userId";
  UPDATE "Team" SET "libraryVersion" = "libraryVersion" + 1 WHERE "id" = OLD."teamId";
END;
