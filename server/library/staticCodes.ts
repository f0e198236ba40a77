// Static QR codes: a stored URL and name in a library.
import { db, type Tx } from "../platform/db";
import { DomainError, fromZodIssues, notFound } from "../platform/errors";
import { timeOrderedId } from "../platform/ids";
import { changeWithEvents } from "../webhooks";
import {
  initialReviewStatus,
  libraryOwner,
  libraryWhere,
  recordCodeActivity,
  recordCodeDeleted,
  type Actor,
  type Library,
} from "./library";
import { changedFields, needsAdmin } from "../teams/pendingChanges";
import { keysetPages } from "./paging";
import { listPage, STATIC_LIST, type ListFilters } from "./listFilters";
import { refuseUnreadableStyles } from "../images/readableStyles";
import { sendableUrl } from "../platform/urls";
import { refuseServedShortLinks, type NamedDestination } from "./validation";
import { externalIdRace, extrasColumnsOf, refuseUsedExternalIds } from "./recordExtras";
import {
  payloadCapacityProblem,
  staticPayload,
  staticRecordOf,
  type StaticCodeInput,
  type StaticRecord,
} from "./staticRecords";
import { withPresetStyles } from "../stylePresets/stylePresets";
import type { AnyContent } from "../codeTypes/content";
import type { TypedFields } from "../codeTypes/typedFields";

/** The columns of a code's type, url and content. */
export const storedTyped = (fields: TypedFields) => ({
  type: fields.type,
  url: fields.url,
  content: fields.content === null ? null : JSON.stringify(fields.content),
});

export async function listStaticCodes(library: Library, query: ListFilters) {
  const result = await listPage(
    STATIC_LIST,
    ["type", "url", "content", "name", "style", "metadata", "externalId"],
    library,
    query,
  );
  return { qrcodes: result.rows.map(staticRecordOf), next_cursor: result.next_cursor };
}

/** A static code's destination, at `at` in the input (a batch's item). */
export const staticDestinations = (item: { url?: string | null }, at: PropertyKey[] = []): NamedDestination[] => [
  { path: [...at, "url"], label: "url", url: item.url },
];

/** A checked input's stored fields: the url of a `url` code, the content of any other. */
const typedFieldsOf = (item: Pick<StaticCodeInput, "type" | "url" | "content">): TypedFields => {
  const type = item.type ?? "url";
  return type === "url"
    ? { type, url: item.url!, content: null }
    : { type, url: null, content: item.content as AnyContent };
};

/** Creates every item or none (one statement, one transaction); `batch`: refusals are listed by index. */
export async function createStaticCodes(actor: Actor, sent: StaticCodeInput[], batch = false): Promise<StaticRecord[]> {
  const items = await withPresetStyles(actor.library, sent, batch ? "qrcodes" : null);
  // The schema checked the payload's fit at the level of the style sent; a preset's (a logo's H) may hold less.
  const overfull = items.flatMap((item, i) => {
    const problem =
      sent[i].style_preset === undefined ? null : payloadCapacityProblem(typedFieldsOf(item), item.style!);
    return problem ? [{ path: batch ? ["qrcodes", i, "style_preset"] : ["style_preset"], message: problem }] : [];
  });
  if (overfull.length > 0) throw fromZodIssues(overfull);
  refuseServedShortLinks(
    actor.servedHosts,
    items.flatMap((item, i) => staticDestinations(item, batch ? ["qrcodes", i] : [])),
  );
  await refuseUnreadableStyles(
    items.map((item) => ({ text: staticPayload(typedFieldsOf(item)), style: item.style })),
    batch ? "qrcodes" : null,
  );
  const taken = items.map((item) => ({ externalId: item.external_id }));
  await refuseUsedExternalIds("staticCode", actor.library, taken, batch ? "qrcodes" : null);
  const now = new Date();
  const rows = items.map((item) => ({
    id: timeOrderedId("qr"),
    ...libraryOwner(actor.library),
    createdById: actor.userId,
    apiKeyId: actor.apiKeyId ?? null,
    name: item.name.trim(),
    ...storedTyped(typedFieldsOf(item)),
    style: JSON.stringify(item.style ?? {}),
    reviewStatus: initialReviewStatus(actor.library),
    createdAt: now,
    updatedAt: now,
    metadata: null,
    externalId: null,
    ...extrasColumnsOf(item),
  }));
  const records = rows.map(staticRecordOf);
  const create = changeWithEvents(actor.library, async (tx) => {
    await tx.staticCode.createMany({ data: rows });
    await recordCodeActivity(
      tx,
      actor,
      "code.created",
      records.map((r) => ({ kind: "static", target: r.qr_id, name: r.name, after: changedFields({}, r)!.after })),
    );
    return { result: records, events: records.map((data) => ({ type: "qrcode.created", data })) };
  });
  return create.catch(externalIdRace("staticCode", actor.library, taken, batch ? "qrcodes" : null));
}

type StaticRow = NonNullable<Awaited<ReturnType<Tx["staticCode"]["findFirst"]>>>;

/** Why `actor` may not delete the code: an approved team code is printed, only an admin deletes it (as a published dynamic code). */
export const staticDeleteProblem = (actor: Actor, row: StaticRow): DomainError | null =>
  needsAdmin(actor, row.reviewStatus === "active")
    ? new DomainError("forbidden", "Only a team admin can delete a published code")
    : null;

/** Deletes a checked code in `tx` with its activity entry; returns its webhook event (single and batch deletes). */
export async function removeStaticRow(tx: Tx, actor: Actor, row: StaticRow) {
  await tx.staticCode.delete({ where: { id: row.id } });
  await recordCodeDeleted(
    tx,
    actor,
    { kind: "static", target: row.id, name: row.name },
    changedFields(staticRecordOf(row), {})!.before,
  );
  return { type: "qrcode.deleted" as const, data: staticRecordOf(row) };
}

/** A static code of the library, or 404. */
export async function findStaticCode(library: Library, qrId: string) {
  const row = await db.staticCode.findFirst({ where: { id: qrId, ...libraryWhere(library) } });
  if (!row) throw notFound("QR code not found");
  return row;
}

export const getStaticCode = async (library: Library, qrId: string) =>
  staticRecordOf(await findStaticCode(library, qrId));

export async function deleteStaticCode(actor: Actor, qrId: string) {
  return changeWithEvents(actor.library, async (tx) => {
    const row = await tx.staticCode.findFirst({ where: { id: qrId, ...libraryWhere(actor.library) } });
    if (!row) throw notFound("QR code not found");
    const problem = staticDeleteProblem(actor, row);
    if (problem) throw problem;
    return { result: { qr_id: qrId, deleted: true as const }, events: [await removeStaticRow(tx, actor, row)] };
  });
}

export const STATIC_EXPORT_COLUMNS = [
  "qr_id",
  "name",
  "url",
  "created_at",
  "updated_at",
  "metadata",
  "external_id",
  "type",
  "content",
] as const;

/** Every record of the library, oldest first, a page at a time (for streamed CSV). */
export async function* staticExportRows(library: Library): AsyncGenerator<unknown[][]> {
  const pages = keysetPages((after, take) =>
    db.staticCode.findMany({
      where: { ...libraryWhere(library), ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: "asc" },
      take,
      select: {
        id: true,
        name: true,
        url: true,
        createdAt: true,
        updatedAt: true,
        metadata: true,
        externalId: true,
        type: true,
        content: true,
      },
    }),
  );
  for await (const rows of pages)
    yield rows.map((r) => [
      r.id,
      r.name,
      r.url === null ? null : sendableUrl(r.url),
      r.createdAt,
      r.updatedAt,
      r.metadata ?? "{}",
      r.externalId,
      r.type,
      r.content,
    ]);
}
