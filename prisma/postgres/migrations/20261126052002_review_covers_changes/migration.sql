-- AlterTable
ALTER TABLE "DynamicCode" ADD COLUMN     "changeRejection" TEXT,
ADD COLUMN     "pendingChange" TEXT,
ADD COLUMN     "publishedAt" TIMESTAMP(3);

-- Team codes published before this migration: those active now, and those an admin approved
-- once (reviewedAt is set when an admin makes a draft active) that were paused or set back to
-- draft since. A code a writer paused straight from draft was never published.
UPDATE "DynamicCode" SET "publishedAt" = COALESCE("reviewedAt", "updatedAt")
WHERE "teamId" IS NOT NULL AND "deletedAt" IS NULL AND ("status" = 'active' OR "reviewedAt" IS NOT NULL);
