// Which page of a library is shown: the page's server render prefetches the first one under
// the same query key that the Library component then reads.
import type { LibraryKind } from "@/server/library/libraryItems";

export type LibraryQuery = { search: string; page: number };

export const FIRST_PAGE: LibraryQuery = { search: "", page: 1 };

/** library.page's input (its field `scope` names the LibraryKind). */
export const libraryPageInput = (libraryKind: LibraryKind, query: LibraryQuery = FIRST_PAGE) => ({
  scope: libraryKind,
  ...query,
});

/** Which page of the review queue on /business is shown: a kind ("" for both), a search, a page. */
export type QueueQuery = { search: string; kind: "" | "static" | "dynamic"; page: number };

export const FIRST_QUEUE_PAGE: QueueQuery = { search: "", kind: "", page: 1 };

/** The review queue is library.page of the team library's drafts. */
export const reviewQueueInput = ({ kind, ...query }: QueueQuery = FIRST_QUEUE_PAGE) => ({
  ...libraryPageInput("team", query),
  drafts: true,
  ...(kind ? { kind } : {}),
});
