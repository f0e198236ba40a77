// The /v1 lists' filters and sorts (contract Part 3, "Reading, finding and changing in bulk"):
// `search`, `created_after`, `created_before`, `external_id`, `sort`, and on dynamic codes `status`. A page is
// one keyset query read through the driver (as every list page: Prisma's planning cost more
// than the query), and its cursor carries the filters it was made for.
import { createHash } from "node:crypto";
import { z } from "zod";
import { dialectSql, epochMs, selectRows, storedTime, type Dialect } from "../platform/db";
import { invalid } from "../platform/errors";
import { STATUSES } from "./dynamicRecords";
import { libraryCondition, type Library } from "./library";
import { searchCondition } from "./listSearch";
import { listQuery } from "./validation";
import { externalIdFilter } from "./recordExtras";

export const MAX_SEARCH_LENGTH = 200;
export const SORTS = ["newest", "oldest", "name"] as const;
/** 9999-12-31T23:59:59Z: later is no date. */
const MAX_EPOCH_SECONDS = 253_402_300_799;

const SECONDS = (field: string) => `${field} must be an integer number of seconds since 1970-01-01 UTC`;
/** Epoch seconds as the query string sends them: decimal digits only ("1e9", " 5", "1.5" are refused). */
const epochSecondsField = (field: string, description: string) =>
  z
    .preprocess(
      (v) => (typeof v === "string" && /^\d{1,15}$/.test(v) ? Number(v) : v),
      z
        .number({ error: SECONDS(field) })
        .int(SECONDS(field))
        .min(0, SECONDS(field))
        .max(MAX_EPOCH_SECONDS, SECONDS(field))
        .meta({ description }),
    )
    .optional();

// No `example` on a filter: Swagger UI's "Try it out" fills a parameter's example into its field,
// and a list would then come back filtered (or refused) unasked. Examples are in the descriptions.
const filterShape = {
  search: z
    .string({ error: "search must be a string" })
    // Counted before anything else reads it: a megabyte is refused by its length alone.
    .max(MAX_SEARCH_LENGTH, `search must be at most ${MAX_SEARCH_LENGTH} characters`)
    // No name or URL holds one (a name's rule), so none is searched for.
    .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, "search must not contain control characters (line breaks, tabs, NUL)")
    .optional()
    .meta({
      description:
        "Case-insensitive text in the name or URL (Unicode case, the same on every backend; `%`, `_` and `\\` are plain characters), or an exact code / qr_id, e.g. `menu`. At most 200 characters; empty is no filter.",
    }),
  created_after: epochSecondsField(
    "created_after",
    "Only codes created at or after this time (epoch seconds, inclusive), e.g. `1767225600` (2026-01-01 UTC).",
  ),
  created_before: epochSecondsField(
    "created_before",
    "Only codes created before this time (epoch seconds, exclusive).",
  ),
  external_id: externalIdFilter.optional(),
  sort: z
    .enum(SORTS, { error: `sort must be one of ${SORTS.join(", ")}` })
    .optional()
    .meta({ description: "newest (default) or oldest first by creation, or name A to Z (case-insensitive)." }),
};

const beforeAfter = (query: { created_after?: number; created_before?: number }) =>
  query.created_after === undefined || query.created_before === undefined || query.created_before > query.created_after;
const BEFORE_AFTER = { error: "created_before must be later than created_after", path: ["created_before"] };

export const staticListQuery = listQuery.extend(filterShape).refine(beforeAfter, BEFORE_AFTER);
export const dynamicListQuery = listQuery
  .extend({
    ...filterShape,
    status: z
      .enum(STATUSES, { error: `status must be one of ${STATUSES.join(", ")}` })
      .optional()
      .meta({ description: "Only codes in this status." }),
  })
  .refine(beforeAfter, BEFORE_AFTER);
export type ListFilters = z.infer<typeof dynamicListQuery>;

/** A list's table and what its rows are named by. */
type ListedKind = { table: "StaticCode" | "DynamicCode"; prefix: "qr" | "dyn"; exactColumn: "id" | "code" };
export const STATIC_LIST: ListedKind = { table: "StaticCode", prefix: "qr", exactColumn: "id" };
export const DYNAMIC_LIST: ListedKind = { table: "DynamicCode", prefix: "dyn", exactColumn: "code" };

export type ListedRow<Columns extends string> = { [C in Columns]: string } & {
  id: string;
  searchName: string;
  createdAt: number;
  updatedAt: number;
};

/** What a cursor is bound to: the filters and sort, not the page size. */
function filtersKey(kind: ListedKind, f: ListFilters, search: string): string {
  const bound = [
    kind.prefix,
    search,
    f.status ?? null,
    f.created_after ?? null,
    f.created_before ?? null,
    f.external_id ?? null,
    f.sort,
  ];
  return createHash("sha256").update(JSON.stringify(bound)).digest("base64url").slice(0, 12);
}

const BAD_CURSOR = "cursor is not valid: pass the next_cursor of a previous page";
const OTHER_FILTERS =
  "cursor was made for other filters or another sort: send the same search, status, created_after, created_before, external_id and sort as the page it came from, or no cursor to start again";

type Position = { id: string; name: string };

function decodePosition(cursor: string, kind: ListedKind, key: string): Position {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString());
  } catch {
    throw invalid(BAD_CURSOR);
  }
  const [bound, id, name] = Array.isArray(parsed) ? parsed : [];
  if (typeof bound !== "string" || typeof id !== "string" || typeof name !== "string") throw invalid(BAD_CURSOR);
  if (!new RegExp(`^${kind.prefix}_[0-9a-z]{21}$`).test(id)) throw invalid(BAD_CURSOR);
  if (bound !== key) throw invalid(OTHER_FILTERS);
  return { id, name };
}

const encodePosition = (key: string, row: { id: string; searchName: string }) =>
  Buffer.from(JSON.stringify([key, row.id, row.searchName])).toString("base64url");

/** PostgreSQL compares text by the database's collation: the name order is made bytewise there too, as on SQLite. */
const bytewise = (d: Dialect, column: string) => (d === "postgres" ? `${column} COLLATE "C"` : column);

/**
 * One page of a library's codes with the filters, and the cursor of the next page. Reads
 * `limit + 1` rows: one more than the page says whether there is a next one.
 */
export async function listPage<Columns extends string>(
  kind: ListedKind,
  columns: Columns[],
  library: Library,
  query: ListFilters & { liveOnly?: boolean },
): Promise<{ rows: ListedRow<Columns>[]; next_cursor: string | null }> {
  const limit = query.limit ?? 50;
  const sort = query.sort ?? "newest";
  const search = query.search?.trim() ?? "";
  const key = filtersKey(kind, { ...query, sort }, search);
  const after = query.cursor === undefined ? null : decodePosition(query.cursor, kind, key);
  const owner = libraryCondition(library, "r");
  const where: ((d: Dialect) => string)[] = [() => owner.sql];
  const params: unknown[] = [owner.id];
  const add = (sql: string | ((d: Dialect) => string), ...values: unknown[]) => {
    where.push(typeof sql === "string" ? () => sql : sql);
    params.push(...values);
  };
  if (query.liveOnly) add(`r."deletedAt" IS NULL`);
  if (query.status) add(`r."status" = ?`, query.status);
  if (query.external_id !== undefined) add(`r."externalId" = ?`, query.external_id);
  if (query.created_after !== undefined) add(`r."createdAt" >= ?`, storedTime(query.created_after * 1000));
  if (query.created_before !== undefined) add(`r."createdAt" < ?`, storedTime(query.created_before * 1000));
  if (search) {
    const found = await searchCondition(kind.table, kind.exactColumn, search, sort);
    add(found.sql, ...found.params);
  }
  const name = (d: Dialect) => bytewise(d, 'r."searchName"');
  if (after && sort === "name")
    add((d) => `(${name(d)} > ? OR (${name(d)} = ? AND r."id" > ?))`, after.name, after.name, after.id);
  else if (after) add(`r."id" ${sort === "newest" ? "<" : ">"} ?`, after.id);
  const order = (d: Dialect) =>
    sort === "name" ? `${name(d)} ASC, r."id" ASC` : `r."id" ${sort === "newest" ? "DESC" : "ASC"}`;
  const sql = dialectSql(
    (
      d,
    ) => `SELECT r."id", ${columns.map((c) => `r."${c}"`).join(", ")}, r."searchName", ${epochMs(d, 'r."createdAt"')} AS "createdAt", ${epochMs(d, 'r."updatedAt"')} AS "updatedAt"
     FROM "${kind.table}" r WHERE ${where.map((w) => w(d)).join(" AND ")} ORDER BY ${order(d)} LIMIT ?`,
  );
  const rows = await selectRows<ListedRow<Columns>>(sql, [...params, limit + 1]);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return { rows: page, next_cursor: more ? encodePosition(key, page[page.length - 1]) : null };
}
