-- Hand-written: Prisma's diff would redefine the table (new table + copy), which drops the
-- library-version and search triggers (search_trigrams); SQLite adds these columns in place,
-- at the end, as the redefined table would have them.
ALTER TABLE "DynamicCode" ADD COLUMN "type" TEXT NOT NULL DEFAULT 'url';
ALTER TABLE "DynamicCode" ADD COLUMN "content" TEXT;
