-- CreateTable
CREATE TABLE "Domain" (
    "domain" TEXT NOT NULL PRIMARY KEY,
    "library" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "verifiedAt" DATETIME,
    "createdAt" DATETIME NOT NULL
);

-- AlterTable (ADD COLUMN, not Prisma's table redefinition: that would drop the library-version triggers)
ALTER TABLE "DynamicCode" ADD COLUMN "domain" TEXT NOT NULL DEFAULT '';

-- DropIndex: a code is unique per domain now (and within its library)
DROP INDEX "DynamicCode_code_key";

-- CreateIndex
CREATE UNIQUE INDEX "DynamicCode_domain_code_key" ON "DynamicCode"("domain", "code");
CREATE UNIQUE INDEX "DynamicCode_userId_code_key" ON "DynamicCode"("userId", "code");
CREATE UNIQUE INDEX "DynamicCode_teamId_code_key" ON "DynamicCode"("teamId", "code");
CREATE INDEX "Domain_library_idx" ON "Domain"("library");
