-- CreateIndex
CREATE INDEX "DynamicCode_userId_searchName_id_idx" ON "DynamicCode"("userId", "searchName", "id");

-- CreateIndex
CREATE INDEX "DynamicCode_teamId_searchName_id_idx" ON "DynamicCode"("teamId", "searchName", "id");

-- CreateIndex
CREATE INDEX "StaticCode_userId_searchName_id_idx" ON "StaticCode"("userId", "searchName", "id");

-- CreateIndex
CREATE INDEX "StaticCode_teamId_searchName_id_idx" ON "StaticCode"("teamId", "searchName", "id");
