// POST /v1/qrcodes/batch-delete and /v1/dynqrcodes/batch-delete (contract Part 3): 1 to 50
// codes deleted all or nothing, each as its single DELETE deletes it (the same checks, one
// activity entry and one webhook event per code), in one transaction.
import { z } from "zod";
import { DomainError, notFound, type BatchItemError, type DomainErrorCode } from "../platform/errors";
import { changeWithEvents } from "../webhooks";
import { dynamicDeleteProblem, forgetResolutions, removeDynamicRow } from "./dynamicCodes";
import { libraryWhere, type Actor } from "./library";
import { removeStaticRow, staticDeleteProblem } from "./staticCodes";
import { bodyObject, boundedArray, MAX_BATCH } from "./validation";

/** Longer than any qr_id or code: refused before any query. */
const MAX_ID_LENGTH = 100;

export const batchDeleteInput = bodyObject({
  ids: boundedArray(
    MAX_BATCH,
    z
      .array(
        z
          .string({ error: "ids must hold strings" })
          .max(MAX_ID_LENGTH, "not a qr_id or code of this library")
          // Documented, not enforced: an id of another shape is one the library does not hold (404 by index).
          .meta({ pattern: "^[0-9A-Za-z_]{1,100}$", example: "qr_0mhx1k2a0001abcdefghi" }),
        {
          error: `ids must be an array of 1 to ${MAX_BATCH} ids`,
        },
      )
      .min(1, "ids must hold at least 1 id")
      .max(MAX_BATCH, `A batch holds at most ${MAX_BATCH} items`)
      .superRefine((ids, ctx) => {
        const first = new Map<string, number>();
        ids.forEach((id, index) => {
          const seen = first.get(id);
          if (seen === undefined) first.set(id, index);
          else ctx.addIssue({ code: "custom", path: [index], message: `the same id as item ${seen}: send each once` });
        });
      }),
  ).meta({ description: `1 to ${MAX_BATCH} ids (qr_id of static codes, code of dynamic ones), each once.` }),
});

/**
 * Every item's refusal by index, as a batch create lists its invalid items; the answer's status
 * is the first refused item's (404 for an id the library does not hold, 403 for a published
 * code a writer may not delete).
 */
function refuseItems(ids: string[], problemOf: (id: string) => DomainError | null): void {
  const items: BatchItemError[] = [];
  let code: DomainErrorCode | null = null;
  ids.forEach((id, index) => {
    const problem = problemOf(id);
    if (!problem) return;
    items.push({ index, error: problem.message });
    code ??= problem.code;
  });
  if (code) throw new DomainError(code, "Some items of the batch cannot be deleted", items);
}

export async function deleteStaticCodes(actor: Actor, ids: string[]): Promise<{ deleted: string[] }> {
  return changeWithEvents(actor.library, async (tx) => {
    const rows = await tx.staticCode.findMany({ where: { id: { in: ids }, ...libraryWhere(actor.library) } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    refuseItems(ids, (id) => {
      const row = byId.get(id);
      return row ? staticDeleteProblem(actor, row) : notFound("QR code not found");
    });
    const events = [];
    for (const id of ids) events.push(await removeStaticRow(tx, actor, byId.get(id)!));
    return { result: { deleted: ids }, events };
  });
}

export async function deleteDynamicCodes(actor: Actor, codes: string[]): Promise<{ deleted: string[] }> {
  const deleted = await changeWithEvents(actor.library, async (tx) => {
    const rows = await tx.dynamicCode.findMany({
      where: { code: { in: codes }, ...libraryWhere(actor.library), deletedAt: null },
    });
    const byCode = new Map(rows.map((row) => [row.code, row]));
    refuseItems(codes, (code) => {
      const row = byCode.get(code);
      return row ? dynamicDeleteProblem(actor, row) : notFound("Dynamic QR code not found");
    });
    const events = [];
    for (const code of codes) events.push(await removeDynamicRow(tx, actor, byCode.get(code)!));
    return { result: { deleted: codes }, events };
  });
  // Committed: every instance stops redirecting them at once.
  await forgetResolutions(codes);
  return deleted;
}
