// Keyset paging over time-ordered ids, for the exports (the /v1 lists: ./listFilters.ts).

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
