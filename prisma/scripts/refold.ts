// After the `list_filters` migration: its SQL backfill folds with lower(), which folds ASCII only
// on SQLite (and on PostgreSQL under the C locale), so each code whose folding differs from the
// app's (server/platform/searchFold.ts) is folded again here: a search for "école" finds a code
// named "ÉCOLE" that was made before the upgrade too. It runs on the migration's own connection
// (on SQLite the engine holds the file for itself), once, in the run that applies the migration.
import type { SqlDriverAdapter } from "@prisma/driver-adapter-utils";
import { foldForSearch } from "../../server/platform/searchFold";

export const REFOLDED_BY = "_list_filters";

const TABLES = [
  { table: "StaticCode", url: "url" },
  { table: "DynamicCode", url: "destinationUrl" },
];

const TEXT = { scalarType: "string", arity: "scalar" } as const;

/** Folds again each code whose stored folding is not the app's; returns how many. */
export async function refoldSearch(conn: SqlDriverAdapter): Promise<number> {
  const at = (n: number) => (conn.provider === "postgres" ? `$${n}` : "?");
  let count = 0;
  for (const { table, url } of TABLES) {
    const { rows } = await conn.queryRaw({
      sql: `SELECT "id", "name", "${url}", "searchName", "searchUrl" FROM "${table}"`,
      args: [],
      argTypes: [],
    });
    for (const [id, name, address, searchName, searchUrl] of rows as string[][]) {
      const folded = [foldForSearch(name), foldForSearch(address)];
      if (folded[0] === searchName && folded[1] === searchUrl) continue;
      await conn.executeRaw({
        sql: `UPDATE "${table}" SET "searchName" = ${at(1)}, "searchUrl" = ${at(2)} WHERE "id" = ${at(3)}`,
        args: [...folded, id],
        argTypes: [TEXT, TEXT, TEXT],
      });
      count++;
    }
  }
  return count;
}
