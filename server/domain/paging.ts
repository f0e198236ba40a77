// Keyset paging over time-ordered ids, shared by every list and export.
import { encodeCursor } from "./validation";

/** Cuts the `limit + 1` rows of a newest-first query into a page and its next cursor. */
export function toPage<T extends { id: string }>(rows: T[], limit: number): { rows: T[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return { rows: page, next_cursor: more ? encodeCursor(page[page.length - 1].id) : null };
}

/** Every row, oldest first, one page per read: the next page is read only when asked for. */
export async function* keysetPages<T extends { id: string }>(
  read: (after: string | undefined, take: number) => Promise<T[]>,
  pageSize = 1000,
): AsyncGenerator<T[]> {
  let after: string | undefined;
  for (;;) {
    const rows = await read(after, pageSize);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].id;
  }
}
