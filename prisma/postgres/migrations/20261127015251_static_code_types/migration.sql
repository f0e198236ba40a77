-- AlterTable
ALTER TABLE "StaticCode" ADD COLUMN     "content" TEXT,
ADD COLUMN     "type" TEXT NOT NULL DEFAULT 'url',
ALTER COLUMN "url" DROP NOT NULL;
