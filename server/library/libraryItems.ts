// The libraries as the web pages see them: /library (personal) and the team library on
// /business. Every change goes through the same domain functions as /v1, so the rules
// (validation, all-or-nothing batches, drafts, who may publish) cannot drift apart.
import { z } from "zod";
import { db, dialect, dialectSql, selectRows } from "../platform/db";
import { DomainError } from "../platform/errors";
import { totalScansOf } from "../analytics/analytics";
import { dynamicDestinations } from "./dynamicCodes";
import { settableStatuses } from "./dynamicStatuses";
import { shortUrl } from "./dynamicRecords";
import { dynamicShownText } from "../hosted/shown";
import type { DynamicType } from "../hosted/content";
import { libraryCondition, libraryWhere, type Actor, type Library } from "./library";
import {
  changeRejectionOf,
  pendingChangeOf,
  type ChangeRejection,
  type PendingChangeRecord,
} from "../teams/pendingChanges";
import { staticDestinations } from "./staticCodes";
import { staticShownText, typedFieldsOfRow } from "./staticRecords";
import type { CodeType } from "../codeTypes/content";
import { membershipOf, type ItemKind, type Role } from "../teams/teams";
import { type NamedDestination, type Style } from "./validation";
import { escapeLike } from "../platform/searchFold";
import { rulesRecordOf, type RulesRecord } from "../rules";

export const libraryKindField = z.enum(["personal", "team"]);
export type LibraryKind = z.infer<typeof libraryKindField>;
export const PAGE_SIZE = 20;
/** Pasted lines `name, url`: characters at most. */
export const MAX_PASTED_LENGTH = 100_000;

/**
 * The account acting on one of its libraries: its own, or its team's with its role.
 * `servedHosts`: the hosts its request reached (server/platform/served-host.ts), for a call that may
 * write destinations; null for one that writes none.
 */
export async function actorFor(
  userId: string,
  scope: LibraryKind,
  servedHosts: readonly string[] | null | undefined,
): Promise<Actor> {
  if (scope === "personal") return { userId, library: { kind: "personal", userId }, servedHosts };
  const membership = await membershipOf(userId);
  if (!membership) throw new DomainError("forbidden", "You are not in a team");
  return { userId, library: { kind: "team", teamId: membership.teamId }, role: membership.role as Role, servedHosts };
}

/** A library item's destination (a static code's url, a dynamic code's destination_url), at its place in a batch of its kind when `index` is given. */
export const itemDestinations = (kind: ItemKind, url: string, index?: number): NamedDestination[] =>
  kind === "static"
    ? staticDestinations({ url }, index === undefined ? [] : ["qrcodes", index])
    : dynamicDestinations({ destination_url: url }, index === undefined ? [] : ["dynqrcodes", index]);

export function requireEditor(actor: Actor): void {
  if (actor.role === "viewer")
    throw new DomainError("forbidden", "Viewers only read the team library: ask an admin to make you a writer");
}

/**
 * The library through which an account sees a record: its personal library, or its team's.
 * Null when the record is in neither (the page answers 404).
 */
export async function libraryOfItemFor(userId: string, kind: ItemKind, id: string): Promise<Library | null> {
  // A code is unique within its library, not across the service (one per domain): the account's own or its team's.
  const membership = await db.membership.findUnique({ where: { userId }, select: { teamId: true } });
  const owner =
    kind === "dynamic"
      ? await db.dynamicCode.findFirst({
          where: { code: id, OR: [{ userId, teamId: null }, ...(membership ? [{ teamId: membership.teamId }] : [])] },
          select: { userId: true, teamId: true },
        })
      : await db.staticCode.findUnique({ where: { id }, select: { userId: true, teamId: true } });
  if (!owner) return null;
  if (owner.teamId === null) return owner.userId === userId ? { kind: "personal", userId } : null;
  return membership?.teamId === owner.teamId ? { kind: "team", teamId: owner.teamId } : null;
}

export type LibraryItem = {
  kind: ItemKind;
  /** qr_id of a static code, code of a dynamic one. */
  id: string;
  name: string;
  /** A static code's url (or what its content is: `Wi-Fi: Café (WPA)`), a dynamic code's destination. */
  url: string;
  /** A static code's type, a dynamic code's `url`, `vcard` or `page` (docs/TYPES.md). */
  type: CodeType | DynamicType;
  /** A hosted (vcard or page) dynamic code's content, which its edit form changes; null otherwise. */
  content: Record<string, unknown> | null;
  shortUrl: string | null;
  status: "active" | "paused" | "draft";
  style: Style;
  createdAt: string;
  /** To the millisecond: the edit form sends it back, and a save after another one is refused. */
  updatedAt: string;
  createdBy: string;
  totalScans: number | null;
  /** A dynamic code's rules as the API shows them; null for a static code. */
  rules: RulesRecord | null;
  /** A writer's change waiting for an admin (a published team code's); null when none. */
  pendingChange: PendingChangeRecord | null;
  /** The last rejected change and the admin's reason, until the next change; null when none. */
  rejection: ChangeRejection | null;
};

const LIKE_WILDCARD = /[%_]/;

/**
 * Where an item of the library holds `search`, literally and ignoring (ASCII) case, in its
 * name or URL (a dynamic one's code too). Prisma's `contains` is a LIKE whose pattern it does
 * not escape, so `%` and `_` would be wildcards. PostgreSQL's LIKE escapes with `\` unless told
 * otherwise: the text is escaped so. SQLite's LIKE has no escape character unless the query
 * names one, which Prisma's does not: a search there holding `%` or `_` is matched by instr()
 * in SQL, and the page reads the items of the ids it found.
 */
export async function searchWhere(library: Library, search: string) {
  if (!search) return { statics: {}, dynamics: {} };
  if (dialect === "postgres" || !LIKE_WILDCARD.test(search)) {
    const containing =
      dialect === "postgres" ? { contains: escapeLike(search), mode: "insensitive" as const } : { contains: search };
    return {
      statics: { OR: [{ name: containing }, { url: containing }] },
      dynamics: { OR: [{ name: containing }, { destinationUrl: containing }, { code: containing }] },
    };
  }
  const owner = libraryCondition(library, "c");
  const holds = (columns: string[]) =>
    columns.map((column) => `instr(lower(c."${column}"), lower(?)) > 0`).join(" OR ");
  const [statics, dynamics] = await Promise.all([
    selectRows<{ id: string }>(
      dialectSql(() => `SELECT c."id" FROM "StaticCode" c WHERE ${owner.sql} AND (${holds(["name", "url"])})`),
      [owner.id, search, search],
    ),
    selectRows<{ id: string }>(
      dialectSql(
        () =>
          `SELECT c."id" FROM "DynamicCode" c WHERE ${owner.sql} AND c."deletedAt" IS NULL AND (${holds(["name", "destinationUrl", "code"])})`,
      ),
      [owner.id, search, search, search],
    ),
  ]);
  return { statics: { id: { in: statics.map((r) => r.id) } }, dynamics: { id: { in: dynamics.map((r) => r.id) } } };
}

export type LibraryPageQuery = {
  search?: string;
  page?: number;
  /** Only codes of this kind. */
  kind?: ItemKind;
  /** Only drafts (the review queue of a team library). */
  drafts?: boolean;
};

/**
 * One page of the library, static and dynamic codes together, newest first; `search` matches
 * name, URL or code. The review queue on /business is the team library's drafts, paged and
 * searched the same way.
 */
export async function libraryPage(actor: Actor, query: LibraryPageQuery) {
  const search = query.search?.trim() ?? "";
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const where = libraryWhere(actor.library);
  const matching = await searchWhere(actor.library, search);
  const staticWhere = { ...where, ...matching.statics, ...(query.drafts ? { reviewStatus: "draft" } : {}) };
  const dynamicWhere = {
    ...where,
    deletedAt: null,
    ...matching.dynamics,
    ...(query.drafts ? { status: "draft" } : {}),
  };
  // The newest page × size of each kind holds every item of the page once merged; a kind left
  // out by the filter reads nothing.
  const take = page * PAGE_SIZE;
  const order = [{ createdAt: "desc" as const }, { id: "desc" as const }];
  const include = { createdBy: { select: { email: true } } };
  const wanted = (kind: ItemKind) => !query.kind || query.kind === kind;
  const [statics, dynamics, staticCount, dynamicCount] = await Promise.all([
    wanted("static") ? db.staticCode.findMany({ where: staticWhere as never, orderBy: order, take, include }) : [],
    wanted("dynamic") ? db.dynamicCode.findMany({ where: dynamicWhere as never, orderBy: order, take, include }) : [],
    wanted("static") ? db.staticCode.count({ where: staticWhere as never }) : 0,
    wanted("dynamic") ? db.dynamicCode.count({ where: dynamicWhere as never }) : 0,
  ]);
  const merged = [
    ...statics.map((s) => ({ at: s.createdAt, row: s, kind: "static" as const })),
    ...dynamics.map((d) => ({ at: d.createdAt, row: d, kind: "dynamic" as const })),
  ]
    .sort((a, b) => b.at.getTime() - a.at.getTime() || (b.row.id > a.row.id ? 1 : -1))
    .slice((page - 1) * PAGE_SIZE, take);
  const totals = await totalScansOf(merged.filter((m) => m.kind === "dynamic").map((m) => m.row.id));
  const items: LibraryItem[] = merged.map(({ kind, row }) => {
    const common = {
      name: row.name,
      style: JSON.parse(row.style) as Style,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      createdBy: row.createdBy.email,
    };
    if (kind === "static") {
      const s = row as (typeof statics)[number];
      return {
        ...common,
        kind,
        id: s.id,
        url: staticShownText(typedFieldsOfRow(s)),
        type: s.type as CodeType,
        content: null,
        shortUrl: null,
        status: s.reviewStatus as LibraryItem["status"],
        totalScans: null,
        rules: null,
        pendingChange: null,
        rejection: null,
      };
    }
    const d = row as (typeof dynamics)[number];
    return {
      ...common,
      kind,
      id: d.code,
      url: dynamicShownText(d),
      type: d.type as DynamicType,
      content: d.content === null ? null : (JSON.parse(d.content) as Record<string, unknown>),
      shortUrl: shortUrl(d.code, d.domain),
      status: d.status as LibraryItem["status"],
      totalScans: totals.get(d.id) ?? 0,
      rules: rulesRecordOf(d),
      pendingChange: pendingChangeOf(d.pendingChange),
      rejection: changeRejectionOf(d.changeRejection),
    };
  });
  const total = staticCount + dynamicCount;
  // The statuses the page offers are the ones the update will accept.
  return {
    items,
    page,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
    role: actor.role ?? null,
    statuses: settableStatuses(actor),
  };
}

export type LibraryPage = Awaited<ReturnType<typeof libraryPage>>;
