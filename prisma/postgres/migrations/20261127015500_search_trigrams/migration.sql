-- Hand-written (base.prisma cannot say it; the diff of `npm run db:create-migration` leaves
-- these indexes alone, its shadow database loads pg_trgm: prisma/scripts/migrate.ts): the
-- lists' `search` is LIKE '%…%' on the folded columns (server/library/listFilters.ts), which a
-- B-tree cannot answer; pg_trgm's GIN indexes do, for a search of 3 characters or more.
-- pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it without
-- being a superuser.
-- fastupdate off: codes are written far less often than lists are read, and GIN's pending list
-- would be read through by every search and emptied, seconds at a time, inside some writer's insert.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "StaticCode_searchName_trgm" ON "StaticCode" USING GIN ("searchName" gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX "StaticCode_searchUrl_trgm" ON "StaticCode" USING GIN ("searchUrl" gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX "DynamicCode_searchName_trgm" ON "DynamicCode" USING GIN ("searchName" gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX "DynamicCode_searchUrl_trgm" ON "DynamicCode" USING GIN ("searchUrl" gin_trgm_ops) WITH (fastupdate = off);
