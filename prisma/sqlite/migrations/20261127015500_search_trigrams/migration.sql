-- Hand-written (base.prisma cannot say it; the migrations' diff leaves these tables alone,
-- prisma/scripts/migrate.ts): the lists' `search` is LIKE '%…%' on the folded columns
-- (server/library/listFilters.ts), which a B-tree cannot answer. An FTS5 index with the
-- trigram tokenizer over the same folded text finds the rows holding a search of 3 characters
-- or more; the list then checks its LIKE on those rows only. External content: the index
-- keeps no copy of the text, it reads the code's row by rowid (which VACUUM and VACUUM INTO
-- keep). Case-sensitive trigrams: the columns are folded already, by the app's own rule.
-- A later migration that redefines StaticCode or DynamicCode (Prisma's new table + copy) drops
-- these triggers and renumbers the rows: it must create the triggers again and end with
-- INSERT INTO "<Table>_search"("<Table>_search") VALUES ('rebuild').

CREATE VIRTUAL TABLE "StaticCode_search" USING fts5("searchName", "searchUrl", content='StaticCode', content_rowid='rowid', tokenize='trigram case_sensitive 1');
INSERT INTO "StaticCode_search"("StaticCode_search") VALUES ('rebuild');
CREATE TRIGGER "StaticCode_search_insert" AFTER INSERT ON "StaticCode" FOR EACH ROW BEGIN
  INSERT INTO "StaticCode_search"("rowid", "searchName", "searchUrl") VALUES (NEW."rowid", NEW."searchName", NEW."searchUrl");
END;
CREATE TRIGGER "StaticCode_search_delete" AFTER DELETE ON "StaticCode" FOR EACH ROW BEGIN
  INSERT INTO "StaticCode_search"("StaticCode_search", "rowid", "searchName", "searchUrl") VALUES ('delete', OLD."rowid", OLD."searchName", OLD."searchUrl");
END;
CREATE TRIGGER "StaticCode_search_update" AFTER UPDATE OF "searchName", "searchUrl" ON "StaticCode" FOR EACH ROW BEGIN
  INSERT INTO "StaticCode_search"("StaticCode_search", "rowid", "searchName", "searchUrl") VALUES ('delete', OLD."rowid", OLD."searchName", OLD."searchUrl");
  INSERT INTO "StaticCode_search"("rowid", "searchName", "searchUrl") VALUES (NEW."rowid", NEW."searchName", NEW."searchUrl");
END;

CREATE VIRTUAL TABLE "DynamicCode_search" USING fts5("searchName", "searchUrl", content='DynamicCode', content_rowid='rowid', tokenize='trigram case_sensitive 1');
INSERT INTO "DynamicCode_search"("DynamicCode_search") VALUES ('rebuild');
CREATE TRIGGER "DynamicCode_search_insert" AFTER INSERT ON "DynamicCode" FOR EACH ROW BEGIN
  INSERT INTO "DynamicCode_search"("rowid", "searchName", "searchUrl") VALUES (NEW."rowid", NEW."searchName", NEW."searchUrl");
END;
CREATE TRIGGER "DynamicCode_search_delete" AFTER DELETE ON "DynamicCode" FOR EACH ROW BEGIN
  INSERT INTO "DynamicCode_search"("DynamicCode_search", "rowid", "searchName", "searchUrl") VALUES ('delete', OLD."rowid", OLD."searchName", OLD."searchUrl");
END;
CREATE TRIGGER "DynamicCode_search_update" AFTER UPDATE OF "searchName", "searchUrl" ON "DynamicCode" FOR EACH ROW BEGIN
  INSERT INTO "DynamicCode_search"("DynamicCode_search", "rowid", "searchName", "searchUrl") VALUES ('delete', OLD."rowid", OLD."searchName", OLD."searchUrl");
  INSERT INTO "DynamicCode_search"("rowid", "searchName", "searchUrl") VALUES (NEW."rowid", NEW."searchName", NEW."searchUrl");
END;
