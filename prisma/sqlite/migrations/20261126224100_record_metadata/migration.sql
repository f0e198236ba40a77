-- AlterTable
ALTER TABLE "DynamicCode" ADD COLUMN "externalId" TEXT;
ALTER TABLE "DynamicCode" ADD COLUMN "metadata" TEXT;

-- AlterTable
ALTER TABLE "StaticCode" ADD COLUMN "externalId" TEXT;
ALTER TABLE "StaticCode" ADD COLUMN "metadata" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "DynamicCode_userId_externalId_key" ON "DynamicCode"("userId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "DynamicCode_teamId_externalId_key" ON "DynamicCode"("teamId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "StaticCode_userId_externalId_key" ON "StaticCode"("userId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "StaticCode_teamId_externalId_key" ON "StaticCode"("teamId", "externalId");
