-- DropIndex
DROP INDEX "WebhookDelivery_endpointId_id_idx";

-- DropIndex
DROP INDEX "WebhookDelivery_eventId_idx";

-- AlterTable
ALTER TABLE "WebhookDelivery" DROP CONSTRAINT "WebhookDelivery_pkey",
ADD CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("endpointId", "id");
