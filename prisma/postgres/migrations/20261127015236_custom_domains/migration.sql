-- DropIndex
DROP INDEX "DynamicCode_code_key";

-- AlterTable
ALTER TABLE "DynamicCode" ADD COLUMN     "domain" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "Domain" (
    "domain" TEXT NOT NULL,
    "library" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "verifiedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Domain_pkey" PRIMARY KEY ("domain")
);

-- CreateIndex
CREATE INDEX "Domain_library_idx" ON "Domain"("library");

-- CreateIndex
CREATE UNIQUE INDEX "DynamicCode_domain_code_key" ON "DynamicCode"("domain", "code");

-- CreateIndex
CREATE UNIQUE INDEX "DynamicCode_userId_code_key" ON "DynamicCode"("userId", "code");

-- CreateIndex
CREATE UNIQUE INDEX "DynamicCode_teamId_code_key" ON "DynamicCode"("teamId", "code");
