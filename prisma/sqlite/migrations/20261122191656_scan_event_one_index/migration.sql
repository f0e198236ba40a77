-- DropIndex
DROP INDEX "ScanEvent_dynamicCodeId_scannedAt_idx";
