// Keyset paging over time-ordered ids, shared by every list and export.
import { dialectSql, epochMs, selectRows, type Dialect } from "../platform/db";
import { libraryCondition, type Library } from "./library";
import { encodeCursor } from "./validation";

/** A record's row as a list page reads it: its timestamps as epoch milliseconds. */
export type ListedRow<Columns extends string> = { [C in Columns]: string } & {
  id: string;
  createdAt: number;
  updatedAt: number;
};

/**
 * The `limit + 1` newest records of a library older than `before` (for `toPage`), read
 * through the driver: a list page runs on every such /v1 request, and Prisma's planning of
 * the query cost several times the query itself.
 */
export function newestInLibrary<Columns extends string>(
  table: string,
  columns: Columns[],
  library: Library,
  page: { before?: string; limit: number; liveOnly?: boolean },
): Promise<ListedRow<Columns>[]> {
  const owner = libraryCondition(library, "r");
  const select = (d: Dialect) =>
    `SELECT r."id", ${columns.map((c) => `r."${c}"`).join(", ")}, ${epochMs(d, 'r."createdAt"')} AS "createdAt", ${epochMs(d, 'r."updatedAt"')} AS "updatedAt"
     FROM "${table}" r WHERE ${owner.sql}${page.liveOnly ? ' AND r."deletedAt" IS NULL' : ""}${page.before ? ' AND r."id" < ?' : ""} ORDER BY r."id" DESC LIMIT ?`;
  const params = [owner.id, ...(page.before ? [page.before] : []), page.limit + 1];
  return selectRows(dialectSql(select), params);
}

/** Cuts the `limit + 1` rows of a newest-first query into a page and its next cursor. */
export function toPage<T extends { id: string }>(rows: T[], limit: number): { rows: T[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return { rows: page, next_cursor: more ? encodeCursor(page[page.length - 1].id) : null };
}

/** Every row, oldest first, one page per read: the next page is read only when asked for. */
export async function* keysetPages<T>(
  read: (after: string | undefined, take: number) => Promise<T[]>,
  pageSize = 1000,
  idOf: (row: T) => string = (row) => (row as { id: string }).id,
): AsyncGenerator<T[]> {
  let after: string | undefined;
  for (;;) {
    const rows = await read(after, pageSize);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < pageSize) return;
    after = idOf(rows[rows.length - 1]);
  }
}
