// Which page of a library is shown: the page's server render prefetches the first one under
// the same query key that the Library component then reads.
import type { LibraryKind } from "@/server/domain/libraryItems";

export type LibraryQuery = { search: string; page: number };

export const FIRST_PAGE: LibraryQuery = { search: "", page: 1 };

/** library.page's input (its field `scope` names the LibraryKind). */
export const libraryPageInput = (libraryKind: LibraryKind, query: LibraryQuery = FIRST_PAGE) => ({ scope: libraryKind, ...query });
