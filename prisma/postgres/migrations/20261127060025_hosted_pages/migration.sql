-- AlterTable
ALTER TABLE "DynamicCode" ADD COLUMN     "content" TEXT,
ADD COLUMN     "type" TEXT NOT NULL DEFAULT 'url';
