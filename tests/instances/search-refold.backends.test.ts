// The lists' folded search columns on codes made before the `list_filters` migration (on the
// backend of the run): the migration's SQL lower() folds ASCII only on SQLite, so the migrations'
// runner folds again, on its own connection, each code whose folding is not the app's. After
// it, every old code's folding is foldForSearch's, whatever script its name and URL are in.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { REFOLD_PAGE, refoldSearch } from "../../prisma/scripts/refold";
import { foldForSearch } from "../../server/platform/searchFold";
import { dialect, migrationIndex, migrations, scratchDatabase, script } from "../scratch-database";

const target = migrationIndex("list_filters");

const NAMES = ["ÉCOLE Saint-Ours", "Straße ΣΟΦΙΑ", "MENU plain ascii", "Café 東京 ÅNGSTRÖM"];

describe("the list_filters migration on codes made before it", () => {
  it("leaves each code's folded name and URL as the app folds them", async () => {
    assert.ok(target > 0, "the list_filters migration exists");
    const db = await scratchDatabase();
    try {
      for (const m of migrations.slice(0, target)) await db.exec(script(m));
      // The old rows need no users: foreign keys are not what is tested.
      if (dialect === "sqlite") await db.exec("PRAGMA foreign_keys = OFF");
      for (const [i, name] of NAMES.entries()) {
        const url = `https://example.com/${name.split(" ")[0]}`;
        await db.exec(
          `INSERT INTO "StaticCode" ("id", "userId", "createdById", "name", "url", "updatedAt") VALUES ('qr_${i}', 'u', 'u', '${name}', '${url}', CURRENT_TIMESTAMP)`,
        );
        await db.exec(
          `INSERT INTO "DynamicCode" ("id", "code", "userId", "createdById", "name", "destinationUrl", "status", "updatedAt") VALUES ('dyn_${i}', 'c${i}', 'u', 'u', '${name}', '${url}', 'active', CURRENT_TIMESTAMP)`,
        );
      }
      await db.exec(script(migrations[target]));
      const adapter = await db.adapter();
      const refolded = await refoldSearch(adapter);
      // Plain ASCII was folded right by the SQL; the others only where lower() fell short.
      assert.ok(refolded <= 2 * (NAMES.length - 1), `refolded ${refolded}`);
      for (const table of ["StaticCode", "DynamicCode"]) {
        const url = table === "StaticCode" ? "url" : "destinationUrl";
        const rows = await db.rows<{ name: string; address: string; searchName: string; searchUrl: string }>(
          `SELECT "name", "${url}" AS "address", "searchName", "searchUrl" FROM "${table}" ORDER BY "id"`,
        );
        assert.equal(rows.length, NAMES.length);
        for (const row of rows) {
          assert.equal(row.searchName, foldForSearch(row.name), `${table}: ${row.name}`);
          assert.equal(row.searchUrl, foldForSearch(row.address), `${table}: ${row.address}`);
        }
      }
      // A second pass finds nothing left to fold.
      assert.equal(await refoldSearch(adapter), 0);

      // More codes than a page (one transaction each): every one is read and folded again.
      const many = 2 * REFOLD_PAGE + 7;
      await db.exec(
        `INSERT INTO "StaticCode" ("id", "userId", "createdById", "name", "url", "searchName", "searchUrl", "updatedAt") VALUES ${Array.from(
          { length: many },
          (_, i) =>
            `('qr_many_${String(i).padStart(5, "0")}', 'u', 'u', 'ÉTÉ ${i}', 'https://example.com/${i}', 'stale', 'stale', CURRENT_TIMESTAMP)`,
        ).join(", ")}`,
      );
      assert.equal(await refoldSearch(adapter), many);
      const stale = await db.rows<{ n: number | string }>(
        `SELECT count(*) AS "n" FROM "StaticCode" WHERE "searchName" = 'stale' OR "searchUrl" = 'stale'`,
      );
      assert.equal(Number(stale[0].n), 0);
    } finally {
      await db.close();
    }
  });
});
