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
/** Rows read and folded again per transaction: a library of any size is never held in memory at once. */
export const REFOLD_PAGE = 1000;

/**
 * One page of `table` after `afterId` (by id), each row whose folding is not the app's folded
 * again, in one transaction. A row changed since it was read (a server writes it, with the
 * app's folding) is left alone: the update's condition holds the name and URL it was read with.
 */
async function refoldPage(
  conn: SqlDriverAdapter,
  { table, url }: (typeof TABLES)[number],
  afterId: string,
): Promise<{ lastId: string | null; count: number }> {
  const at = (n: number) => (conn.provider === "postgres" ? `$${n}` : "?");
  const tx = await conn.startTransaction();
  try {
    const { rows } = await tx.queryRaw({
      sql: `SELECT "id", "name", "${url}", "searchName", "searchUrl" FROM "${table}" WHERE "id" > ${at(1)} ORDER BY "id" LIMIT ${at(2)}`,
      args: [afterId, REFOLD_PAGE],
      argTypes: [TEXT, { scalarType: "int", arity: "scalar" }],
    });
    let count = 0;
    for (const [id, name, address, searchName, searchUrl] of rows as string[][]) {
      const folded = [foldForSearch(name), foldForSearch(address)];
      if (folded[0] === searchName && folded[1] === searchUrl) continue;
      count += await tx.executeRaw({
        sql: `UPDATE "${table}" SET "searchName" = ${at(1)}, "searchUrl" = ${at(2)} WHERE "id" = ${at(3)} AND "name" = ${at(4)} AND "${url}" = ${at(5)}`,
        args: [...folded, id, name, address],
        argTypes: [TEXT, TEXT, TEXT, TEXT, TEXT],
      });
    }
    await tx.executeRaw({ sql: "COMMIT", args: [], argTypes: [] });
    await tx.commit();
    return { lastId: rows.length === REFOLD_PAGE ? (rows[rows.length - 1][0] as string) : null, count };
  } catch (error) {
    await tx.executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] }).catch(() => undefined);
    await tx.rollback();
    throw error;
  }
}

/** Folds again each code whose stored folding is not the app's, a page at a time; returns how many. */
export async function refoldSearch(conn: SqlDriverAdapter): Promise<number> {
  let count = 0;
  for (const kind of TABLES) {
    let after: string | null = "";
    while (after !== null) {
      const page = await refoldPage(conn, kind, after);
      count += page.count;
      after = page.lastId;
    }
  }
  return count;
}
