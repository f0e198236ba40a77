-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "claimedBy" TEXT;
