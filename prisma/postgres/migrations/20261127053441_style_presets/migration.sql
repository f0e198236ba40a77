-- CreateTable
CREATE TABLE "StylePreset" (
    "id" TEXT NOT NULL,
    "library" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "style" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StylePreset_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "StylePreset_library_name_key" ON "StylePreset"("library", "name");
