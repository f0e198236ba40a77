-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "libraryVersion" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "libraryVersion" INTEGER NOT NULL DEFAULT 0;

-- Every change to a library's codes raises its version, in the same transaction, whichever
-- code path made it: the API caches list pages under the version it reads in the key lookup.
CREATE FUNCTION "raise_library_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE "User" SET "libraryVersion" = "libraryVersion" + 1 WHERE OLD."teamId" IS NULL AND "id" = OLD."userId";
    UPDATE "Team" SET "libraryVersion" = "libraryVersion" + 1 WHERE "id" = OLD."teamId";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE "User" SET "libraryVersion" = "libraryVersion" + 1 WHERE NEW."teamId" IS NULL AND "id" = NEW."userId";
    UPDATE "Team" SET "libraryVersion" = "libraryVersion" + 1 WHERE "id" = NEW."teamId";
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "StaticCode_library_version" AFTER INSERT OR UPDATE OR DELETE ON "StaticCode" FOR EACH ROW EXECUTE FUNCTION "raise_library_version"();
CREATE TRIGGER "DynamicCode_library_version" AFTER INSERT OR UPDATE OR DELETE ON "DynamicCode" FOR EACH ROW EXECUTE FUNCTION "raise_library_version"();
