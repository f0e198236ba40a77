-- Edited by hand: the name order is bytewise on both backends (server/library/listFilters.ts
-- sorts by "searchName" COLLATE "C"), and PostgreSQL uses an index for an ORDER BY only when the
-- index has the same collation. The diff of `npm run db:create-migration` leaves the collation alone.
-- CreateIndex
CREATE INDEX "DynamicCode_userId_searchName_id_idx" ON "DynamicCode"("userId", "searchName" COLLATE "C", "id");

-- CreateIndex
CREATE INDEX "DynamicCode_teamId_searchName_id_idx" ON "DynamicCode"("teamId", "searchName" COLLATE "C", "id");

-- CreateIndex
CREATE INDEX "StaticCode_userId_searchName_id_idx" ON "StaticCode"("userId", "searchName" COLLATE "C", "id");

-- CreateIndex
CREATE INDEX "StaticCode_teamId_searchName_id_idx" ON "StaticCode"("teamId", "searchName" COLLATE "C", "id");
