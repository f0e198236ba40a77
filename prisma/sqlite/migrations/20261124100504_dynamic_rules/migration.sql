-- AlterTable
ALTER TABLE "DynamicCode" ADD COLUMN "expiredUrl" TEXT;
ALTER TABLE "DynamicCode" ADD COLUMN "expiresAt" DATETIME;
ALTER TABLE "DynamicCode" ADD COLUMN "passwordHash" TEXT;
ALTER TABLE "DynamicCode" ADD COLUMN "targets" TEXT;
ALTER TABLE "DynamicCode" ADD COLUMN "utm" TEXT;
