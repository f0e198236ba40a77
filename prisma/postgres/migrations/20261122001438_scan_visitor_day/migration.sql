-- CreateTable
CREATE TABLE "ScanVisitorDay" (
    "dynamicCodeId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "visitorHash" TEXT NOT NULL,

    CONSTRAINT "ScanVisitorDay_pkey" PRIMARY KEY ("dynamicCodeId","day","visitorHash")
);
