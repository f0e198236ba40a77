-- AlterTable
ALTER TABLE "DynamicCode" ADD COLUMN     "expiredUrl" TEXT,
ADD COLUMN     "expiresAt" TIMESTAMP(3),
ADD COLUMN     "passwordHash" TEXT,
ADD COLUMN     "targets" TEXT,
ADD COLUMN     "utm" TEXT;
