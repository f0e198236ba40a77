// The lists' `search` (server/library/listFilters.ts): the folded text (server/platform/searchFold.ts)
// anywhere in the folded name or URL, as LIKE '%…%', or the exact code / qr_id. A B-tree cannot
// answer such a LIKE, so each backend keeps a trigram index over the folded columns (migration
// `search_trigrams`), for a search of 3 characters or more; a shorter one reads the library.
// PostgreSQL: pg_trgm's GIN indexes, which its planner uses for the LIKE itself when its statistics
// say few rows hold the text. SQLite: an FTS5 trigram table per code table, which the planner
// cannot weigh, so the choice is made here (FEW_MATCHES) and the LIKE is still checked on the
// rows it finds: the answer is the same either way, only the work differs.
import { dialect, dialectSql, selectRows, type Dialect } from "../platform/db";
import { escapeLike, foldForSearch } from "../platform/searchFold";

/** A trigram's length, in characters (code points): a shorter search has none to look up. */
export const TRIGRAM = 3;

/**
 * Above this many rows holding the text (in every library), a page is found sooner by walking
 * the library newest first (the page fills after about 50 × library ÷ matches rows) than by
 * reading and sorting every row the index finds.
 */
const FEW_MATCHES = 1000;

export type SearchCondition = { sql: (d: Dialect) => string; params: unknown[] };

/** The FTS5 query that finds the rows holding `folded` as it is: one quoted string (`"` doubled), so no word of it is an operator. */
const phrase = (folded: string) => `"${folded.replaceAll('"', '""')}"`;

/** The condition (and its parameters) a row of `table` meets when it matches `search`. */
export async function searchCondition(
  table: "StaticCode" | "DynamicCode",
  exactColumn: "id" | "code",
  search: string,
  sort: string,
): Promise<SearchCondition> {
  const folded = foldForSearch(search);
  const pattern = `%${escapeLike(folded)}%`;
  const like = `r."searchName" LIKE ? ESCAPE '\\' OR r."searchUrl" LIKE ? ESCAPE '\\'`;
  const exact = `r."${exactColumn}" = ?`;
  const scan = { sql: () => `(${like} OR ${exact})`, params: [pattern, pattern, search] };
  if (dialect === "postgres" || [...folded].length < TRIGRAM) return scan;
  const index = `"${table}_search"`;
  const matching = `SELECT "rowid" FROM ${index} WHERE ${index} MATCH ?`;
  // By name, the whole library is sorted anyway: the index's rows are fewer.
  if (sort !== "name") {
    const count = dialectSql(() => `SELECT count(*) AS "found" FROM (${matching} LIMIT ?)`);
    const [{ found }] = await selectRows<{ found: number }>(count, [phrase(folded), FEW_MATCHES + 1]);
    if (found > FEW_MATCHES) return scan;
  }
  return {
    sql: () => `((r."rowid" IN (${matching}) AND (${like})) OR ${exact})`,
    params: [phrase(folded), pattern, pattern, search],
  };
}
