// The libraries as the web pages see them: /library (personal) and the team library on
// /business. Every change goes through the same domain functions as /v1, so the rules
// (validation, all-or-nothing batches, drafts, who may publish) cannot drift apart.
import { z } from "zod";
import { db, dialect, dialectSql, selectRows } from "../platform/db";
import { DomainError, fromZodIssues, invalid, notFound, type BatchItemError } from "../platform/errors";
import { totalScansOf } from "../analytics/analytics";
import { createDynamicCodes, deleteDynamicCode, dynamicDestinations, settableStatuses } from "./dynamicCodes";
import { updateDynamicCode } from "./dynamicUpdate";
import { updateStaticCode } from "./staticUpdate";
import { dynamicBatchInput, shortUrl, dynamicPatchInput } from "./dynamicRecords";
import { dynamicShownText } from "../hosted/shown";
import type { DynamicType } from "../hosted/content";
import { libraryCondition, libraryWhere, type Actor, type Library } from "./library";
import {
  changeRejectionOf,
  pendingChangeOf,
  type ChangeRejection,
  type PendingChangeRecord,
} from "../teams/pendingChanges";
import { createStaticCodes, deleteStaticCode, staticDestinations } from "./staticCodes";
import {
  staticBatchInput,
  staticPayload,
  staticShownText,
  typedFieldsOfRow,
  type StaticCodeInput,
} from "./staticRecords";
import type { CodeType } from "../codeTypes/content";
import { parseLines } from "./pastedLines";
import { capacityProblem } from "../images/qrImage";
import { renderImage } from "../images/renderer";
import { resolvedStyle } from "../images/qrStyle";
import { refuseUnreadableStyles } from "../images/readableStyles";
import type { LastSeen } from "./staleSave";
import { membershipOf, type ItemKind, type Role } from "../teams/teams";
import {
  MAX_BATCH,
  servedShortLinkIssues,
  styleField,
  styleShape,
  type NamedDestination,
  type Style,
} from "./validation";
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

/**
 * Creates every item or none, through the API's batch path (the callers check the editor). `reportedIndex` turns an item's
 * place in the batch into the index its error names (a pasted line's number minus one).
 */
/** An item of the pages' create form (pasted lines give name and url only). */
type PageItem = {
  name: string;
  url?: string;
  code?: string;
  type?: string;
  content?: unknown;
  domain?: string;
  /** A brand kit of the library, copied into the code (docs/STYLE-PRESETS.md). */
  style_preset?: string;
};

async function createItems(
  actor: Actor,
  kind: ItemKind,
  items: PageItem[],
  reportedIndex: (i: number) => number,
  /** Problems found before (pasted lines that are not `name, url`), reported with the items' own. */
  earlier: BatchItemError[] = [],
): Promise<number> {
  const batch =
    kind === "static"
      ? staticBatchInput.safeParse({
          qrcodes: items.map((i) => ({
            ...(i.type === undefined
              ? { name: i.name, url: i.url }
              : { name: i.name, type: i.type, content: i.content }),
            style_preset: i.style_preset,
          })),
        })
      : dynamicBatchInput.safeParse({
          dynqrcodes: items.map((i) =>
            i.type === undefined
              ? { name: i.name, destination_url: i.url, code: i.code, domain: i.domain, style_preset: i.style_preset }
              : {
                  name: i.name,
                  type: i.type,
                  content: i.content,
                  code: i.code,
                  domain: i.domain,
                  style_preset: i.style_preset,
                },
          ),
        });
  // With the destinations on a /q/ of a host the request reached: every bad line at once (the
  // create functions check those again, as they do for /v1).
  const issues = [
    ...servedShortLinkIssues(
      actor.servedHosts,
      items.flatMap((item, i) => itemDestinations(kind, item.url ?? "", i)),
    ),
    ...(batch.success ? [] : batch.error.issues),
  ];
  if (issues.length > 0) {
    const error = fromZodIssues(issues);
    if (!error.items) throw earlier.length > 0 ? new DomainError("invalid", "Some lines are invalid", earlier) : error;
    const all = [...earlier, ...error.items.map((e) => ({ index: reportedIndex(e.index), error: e.error }))].sort(
      (a, b) => a.index - b.index,
    );
    throw new DomainError("invalid", "Some items are invalid", all);
  }
  if (earlier.length > 0) throw new DomainError("invalid", "Some lines are invalid", earlier);
  const data = batch.data as {
    qrcodes?: StaticCodeInput[];
    dynqrcodes?: { name: string; destination_url: string; code?: string; style_preset?: string }[];
  };
  const created =
    kind === "static"
      ? await createStaticCodes(actor, data.qrcodes!)
      : await createDynamicCodes(actor, data.dynqrcodes!);
  return created.length;
}

/** One item from the page's form; its error is one message. */
export async function createItem(actor: Actor, kind: ItemKind, item: PageItem): Promise<void> {
  requireEditor(actor);
  if (kind === "static" && item.code !== undefined) throw invalid("code is only for dynamic codes");
  if (kind === "static" && item.domain !== undefined) throw invalid("domain is only for dynamic codes");
  try {
    await createItems(actor, kind, [item], (i) => i);
  } catch (error) {
    if (error instanceof DomainError && error.items) throw invalid(error.items[0].error);
    throw error;
  }
}

/** Pasted lines, all created or none; errors name the lines. */
export async function createFromLines(actor: Actor, kind: ItemKind, text: string): Promise<number> {
  requireEditor(actor);
  const { items, problems } = parseLines(text);
  if (items.length === 0 && problems.length === 0) throw invalid("Write at least one line: name, https://…");
  // Refused before any line is checked (the batch's own rule and words).
  if (items.length > MAX_BATCH) throw invalid(`A batch holds at most ${MAX_BATCH} items`);
  // Every bad line at once: those that are not `name, url` and those whose name or URL is refused.
  return createItems(actor, kind, items, (i) => items[i].line - 1, problems);
}

export async function updateItem(actor: Actor, input: z.infer<typeof dynamicPatchInput>, lastSeen?: LastSeen) {
  requireEditor(actor);
  return updateDynamicCode(actor, input, lastSeen);
}

export async function removeItem(actor: Actor, kind: ItemKind, id: string) {
  requireEditor(actor);
  return kind === "static" ? deleteStaticCode(actor, id) : deleteDynamicCode(actor, id);
}

/** Where an item's image points, or a 404: a static code's URL, a dynamic code's short URL. */
async function encodedTextOf(actor: Actor, kind: ItemKind, id: string): Promise<string> {
  const where = libraryWhere(actor.library);
  if (kind === "static") {
    const record = await db.staticCode.findFirst({
      where: { id, ...where },
      select: { type: true, url: true, content: true },
    });
    if (!record) throw notFound("QR code not found");
    return staticPayload(typedFieldsOfRow(record));
  }
  const record = await db.dynamicCode.findFirst({
    where: { code: id, ...where, deletedAt: null },
    select: { code: true, domain: true },
  });
  if (!record) throw notFound("Dynamic QR code not found");
  return shortUrl(record.code, record.domain);
}

/** The API's style rules, thrown as its input error. */
function styleOf(input: unknown): Style {
  const parsed = styleField.safeParse(input);
  if (!parsed.success) throw fromZodIssues(parsed.error.issues);
  return parsed.data;
}

/** The style's rules and the decode check, for the editor's "This design scans" (nothing stored). */
export async function checkItemStyle(actor: Actor, kind: ItemKind, id: string, input: unknown): Promise<Style> {
  const style = styleOf(input);
  const text = await encodedTextOf(actor, kind, id);
  // A higher error-correction level holds fewer bytes: the URL must still fit.
  const problem = kind === "static" && capacityProblem(text, resolvedStyle(style).error_correction);
  if (problem) throw invalid(`The url ${problem}: choose a lower error correction`);
  await refuseUnreadableStyles([{ text, style }]);
  return style;
}

/**
 * The editor's preview and check of a style not saved yet: the image drawn by the same
 * renderer, and why it would be refused (null: "This design scans"). An invalid style
 * (unknown key, unsafe logo) is not drawn at all.
 */
export async function previewItemStyle(
  actor: Actor,
  kind: ItemKind,
  id: string,
  input: unknown,
): Promise<{ svg: string | null; problem: string | null }> {
  const text = await encodedTextOf(actor, kind, id);
  // A well-formed style is drawn even when it would not scan (with its reason); an unsafe logo never is.
  const shape = styleShape.safeParse(input);
  // Drawn as the image routes draw (a long URL's SVG off the event loop), counted against the user's bound.
  const svg = shape.success
    ? await renderImage(`preview:${actor.userId}`, { text, style: shape.data, size: PREVIEW_SIZE, format: "svg" })
        .then(String)
        .catch(() => null)
    : null;
  try {
    await checkItemStyle(actor, kind, id, input);
    return { svg, problem: null };
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== "invalid") throw error;
    return { svg, problem: error.message };
  }
}
const PREVIEW_SIZE = 192;

/**
 * The style editor's save: the API's style rules and the same decode check, refused when the
 * record changed since the editor opened (`lastSeen`). A dynamic code's style is part of its
 * record, so it is saved as a PATCH of it: activity and dynqrcode.updated in one transaction.
 */
export async function saveStyle(
  actor: Actor,
  kind: ItemKind,
  id: string,
  input: unknown,
  lastSeen?: LastSeen,
): Promise<Style> {
  requireEditor(actor);
  if (kind === "dynamic")
    return (await updateDynamicCode(actor, { code: id, style: styleOf(input) }, lastSeen)).record.style;
  // A static code's style is part of its record: changed as its PATCH changes it (qrcode.updated).
  return (await updateStaticCode(actor, { qr_id: id, style: styleOf(input) }, lastSeen)).style;
}
