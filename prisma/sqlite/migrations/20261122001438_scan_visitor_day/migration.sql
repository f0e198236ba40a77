-- CreateTable
CREATE TABLE "ScanVisitorDay" (
    "dynamicCodeId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "visitorHash" TEXT NOT NULL,

    PRIMARY KEY ("dynamicCodeId", "day", "visitorHash")
);
