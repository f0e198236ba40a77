-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN "previousSecret" TEXT;
ALTER TABLE "WebhookEndpoint" ADD COLUMN "previousSecretUntil" DATETIME;
