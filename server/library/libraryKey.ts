// A library's key, as stored where a row belongs to a library rather than to a code (webhook
// endpoints, their events): light on purpose, the scan writer's thread loads it.
import type { Library } from "./library";

/** The library as one string (`user:<id>`, `team:<id>`): the key of what is kept per library. */
export const libraryKey = (library: Library) =>
  library.kind === "personal" ? `user:${library.userId}` : `team:${library.teamId}`;
/** The same key in SQL, of a code row `alias` (the scan writer finds its libraries' endpoints with it). */
export const libraryKeySql = (alias: string) =>
  `CASE WHEN ${alias}."teamId" IS NULL THEN 'user:' || ${alias}."userId" ELSE 'team:' || ${alias}."teamId" END`;
