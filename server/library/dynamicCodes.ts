// Dynamic QR codes: a short code whose /q/<code> address redirects to a changeable destination.
import { z } from "zod";
import { db, isUniqueViolation, type Tx } from "../platform/db";
import { DomainError, notFound } from "../platform/errors";
import { randomString, timeOrderedId } from "../platform/ids";
import { invalidateResolution } from "../scan/resolve";
import { RULE_FIELDS, type RuleColumns } from "../rules";
import { hashPassword } from "../accounts/passwords";
import { copyCreated } from "../scan/live-copy";
import { inSlices, yieldToIo } from "../platform/event-loop";
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
import {
  dynamicRecordOf,
  shortUrl,
  type DynamicCodeInput,
  type DynamicRecord,
  type DynamicStatus,
  type dynamicPatchInput,
} from "./dynamicRecords";
import { DYNAMIC_LIST, listPage, type ListFilters } from "./listFilters";
import { refuseUnreadableStyles } from "../images/readableStyles";
import { refuseServedShortLinks, type NamedDestination } from "./validation";
import { extrasColumnsOf, refuseUsedExternalIds } from "./recordExtras";
import { refuseTakenCodes } from "./backHalf";
import { usableDomains } from "../domains/domains";
import { withPresetStyles } from "../stylePresets/stylePresets";
import { createdTypedColumns, pageLinksOf } from "../hosted/content";

type RuleInput = Partial<Pick<z.infer<typeof dynamicPatchInput>, (typeof RULE_FIELDS)[number]>>;

/** The rule columns a create or PATCH writes: only the fields sent (null clears); the password hashed. */
export async function ruleColumnsOf(input: RuleInput): Promise<Partial<RuleColumns>> {
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  return {
    ...(input.expires_at !== undefined
      ? { expiresAt: input.expires_at === null ? null : new Date(input.expires_at * 1000) }
      : {}),
    ...(input.expired_url !== undefined ? { expiredUrl: input.expired_url } : {}),
    ...(input.targets !== undefined ? { targets: json(input.targets) } : {}),
    ...(input.utm !== undefined ? { utm: json(input.utm) } : {}),
    ...(input.password !== undefined
      ? { passwordHash: input.password === null ? null : await hashPassword(input.password) }
      : {}),
  };
}
/** Rows written per event-loop turn (a batch's are written in one transaction, a few at a time). */
const ROWS_PER_TURN = 2;
const NO_RULES: RuleColumns = { expiresAt: null, expiredUrl: null, targets: null, utm: null, passwordHash: null };

const live = (library: Library) => ({ ...libraryWhere(library), deletedAt: null });

export async function listDynamicCodes(library: Library, query: ListFilters) {
  const result = await listPage(
    DYNAMIC_LIST,
    [
      "code",
      "domain",
      "type",
      "destinationUrl",
      "content",
      "name",
      "style",
      "status",
      "teamId",
      "expiresAt",
      "expiredUrl",
      "targets",
      "utm",
      "passwordHash",
      "pendingChange",
      "metadata",
      "externalId",
    ],
    library,
    { ...query, liveOnly: true },
  );
  return { dynqrcodes: result.rows.map(dynamicRecordOf), next_cursor: result.next_cursor };
}

const CODE_ATTEMPTS = 5;

/** A dynamic code's destinations as sent (destination_url, expired_url, each target's url), at `at` in the input (a batch's item). */
export const dynamicDestinations = (
  item: {
    destination_url?: string | null;
    expired_url?: string | null;
    targets?: { url: string }[] | null;
    content?: unknown;
  },
  at: PropertyKey[] = [],
): NamedDestination[] => [
  { path: [...at, "destination_url"], label: "destination_url", url: item.destination_url },
  { path: [...at, "expired_url"], label: "expired_url", url: item.expired_url },
  ...(item.targets ?? []).map((target, i) => ({
    path: [...at, "targets", i, "url"],
    label: `targets[${i}].url`,
    url: target.url,
  })),
  ...pageLinksOf(item.content).map((url, i) => ({
    path: [...at, "content", "links", i, "url"],
    label: `content.links[${i}].url`,
    url,
  })),
];

/**
 * Creates the items, all or none; a code collision (unique index) retries with fresh codes.
 * `statuses` (the pages' CSV import): a status per item other than the library's first one,
 * already checked with `statusChangeProblem`; a team code made active is published by its
 * creator, as an admin's approval would. `batch`: refused styles are listed by index.
 */
export async function createDynamicCodes(
  actor: Actor,
  sent: DynamicCodeInput[],
  { statuses, batch = false }: { statuses?: (DynamicStatus | null)[]; batch?: boolean } = {},
): Promise<DynamicRecord[]> {
  const items = await withPresetStyles(actor.library, sent, batch ? "dynqrcodes" : null);
  // The checks of a batch's input held the loop already: redirects waiting meanwhile go first.
  if (batch) await yieldToIo();
  refuseServedShortLinks(
    actor.servedHosts,
    items.flatMap((item, i) => dynamicDestinations(item, batch ? ["dynqrcodes", i] : [])),
  );
  const now = new Date();
  const initial: DynamicStatus = initialReviewStatus(actor.library);
  const statusOf = (i: number) => statuses?.[i] ?? initial;
  const review = (i: number) =>
    statusOf(i) === "active" && initial === "draft"
      ? { reviewedById: actor.userId, reviewedAt: now, publishedAt: now }
      : {};
  const taken = items.map((item) => ({ externalId: item.external_id }));
  await refuseUsedExternalIds("dynamicCode", actor.library, taken, batch ? "dynqrcodes" : null);
  const domains = await usableDomains(
    actor.library,
    items.map((item) => item.domain),
    batch,
  );
  const chosen = items.map((item, i) => ({ code: item.code, domain: domains[i] }));
  await refuseTakenCodes(actor.library, chosen, batch);
  // Hashed once, before the transaction (scrypt is slow on purpose).
  const rules = await Promise.all(items.map(ruleColumnsOf));
  for (let attempt = 1; ; attempt++) {
    const rows = items.map((item, i) => ({
      id: timeOrderedId("dyn"),
      code: item.code ?? randomString(8),
      domain: domains[i],
      ...libraryOwner(actor.library),
      createdById: actor.userId,
      apiKeyId: actor.apiKeyId ?? null,
      name: item.name.trim(),
      ...createdTypedColumns(item),
      style: JSON.stringify(item.style ?? {}),
      status: statusOf(i),
      ...review(i),
      createdAt: now,
      updatedAt: now,
      ...NO_RULES,
      ...rules[i],
      metadata: null,
      externalId: null,
      ...extrasColumnsOf(items[i]),
    }));
    // Checked with the codes themselves: the image encodes the short URL.
    await refuseUnreadableStyles(
      rows.map((row, i) => ({ text: shortUrl(row.code, row.domain), style: items[i].style })),
      batch ? "dynqrcodes" : null,
    );
    await yieldToIo();
    // A batch's records serialise half a megabyte of URLs: built a few ms at a time.
    const records: DynamicRecord[] = [];
    const pause = inSlices();
    for (const row of rows) {
      await pause();
      records.push(dynamicRecordOf(row));
    }
    try {
      const created = await changeWithEvents(actor.library, async (tx) => {
        // A batch's rows hold up to a megabyte of URLs: written a few at a time, other requests served between.
        for (let i = 0; i < rows.length; i += ROWS_PER_TURN) {
          await yieldToIo();
          await tx.dynamicCode.createMany({ data: rows.slice(i, i + ROWS_PER_TURN) });
        }
        if (batch) await yieldToIo();
        await recordCodeActivity(
          tx,
          actor,
          "code.created",
          records.map((r) => ({ kind: "dynamic", target: r.code, name: r.name, after: changedFields({}, r)!.after })),
        );
        if (batch) await yieldToIo();
        return { result: records, events: records.map((data) => ({ type: "dynqrcode.created", data })) };
      });
      await copyCreated(rows); // they redirect through a database outage too
      // Then the answer's check and encoding, in a turn of their own.
      if (batch) await yieldToIo();
      return created;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // A request meanwhile took an external_id (409), else a code collided: new codes.
      await refuseUsedExternalIds("dynamicCode", actor.library, taken, batch ? "dynqrcodes" : null);
      // A chosen code taken meanwhile is the caller's 409; a generated one is drawn again.
      await refuseTakenCodes(actor.library, chosen, batch);
      if (attempt >= CODE_ATTEMPTS) throw error;
    }
  }
}

/** A live dynamic code of the library, or 404. */
export async function findDynamicCode(library: Library, code: string) {
  const row = await db.dynamicCode.findFirst({ where: { code, ...live(library) } });
  if (!row) throw notFound("Dynamic QR code not found");
  return row;
}

export const getDynamicCode = async (library: Library, code: string) =>
  dynamicRecordOf(await findDynamicCode(library, code));

export const PUBLISHED_DELETE = "Only a team admin can delete a published code";

type DynamicRow = Awaited<ReturnType<typeof findDynamicCode>>;

/** Why `actor` may not delete the code: a writer's of a published team code is refused. */
export const dynamicDeleteProblem = (actor: Actor, row: DynamicRow): DomainError | null =>
  needsAdmin(actor, row.publishedAt !== null) ? new DomainError("forbidden", PUBLISHED_DELETE) : null;

/** Soft-deletes a checked code in `tx` with its activity entry; returns its webhook event (single and batch deletes). */
export async function removeDynamicRow(tx: Tx, actor: Actor, row: DynamicRow) {
  // Its external_id is free again for a new code (the unique index counts deleted rows too).
  await tx.dynamicCode.update({ where: { id: row.id }, data: { deletedAt: new Date(), externalId: null } });
  await recordCodeDeleted(
    tx,
    actor,
    { kind: "dynamic", target: row.code, name: row.name },
    changedFields(dynamicRecordOf(row), {})!.before,
  );
  return { type: "dynqrcode.deleted" as const, data: dynamicRecordOf(row) };
}

/** Soft delete: the short address stops resolving, the scan history stays. */
export async function deleteDynamicCode(actor: Actor, code: string) {
  const row = await findDynamicCode(actor.library, code);
  const problem = dynamicDeleteProblem(actor, row);
  if (problem) throw problem;
  await changeWithEvents(actor.library, async (tx) => ({
    result: null,
    events: [await removeDynamicRow(tx, actor, row)],
  }));
  await invalidateResolution(code);
  return { code, deleted: true as const };
}

/**
 * Soft-deletes every live code of the library in `tx` (its account is being deleted), as
 * deleteDynamicCode does one: the short addresses answer 410, the codes are never reused and
 * the scan history stays. Returns the codes: once `tx` is committed, `forgetResolutions`.
 */
export async function deleteLibraryDynamicCodes(tx: Tx, library: Library): Promise<string[]> {
  const codes = (await tx.dynamicCode.findMany({ where: live(library), select: { code: true } })).map(
    (row) => row.code,
  );
  await tx.dynamicCode.updateMany({ where: live(library), data: { deletedAt: new Date(), externalId: null } });
  return codes;
}

/** After a committed bulk delete: every instance stops redirecting the codes at once. */
export const forgetResolutions = (codes: string[]) => Promise.all(codes.map((code) => invalidateResolution(code)));
