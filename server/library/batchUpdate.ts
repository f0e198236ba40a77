// PATCH /v1/qrcodes/batch and /v1/dynqrcodes/batch (contract Part 3): 1 to 50 changes, each as
// its single PATCH checks and writes it, all in one transaction or none. Every item is checked
// before anything is written; the refusals are listed by index (an unknown code's 404 too).
// A writer's held-back items come back with their pending_change; one event per changed record.
import { z } from "zod";
import { DomainError, type BatchItemError } from "../platform/errors";
import { yieldToIo } from "../platform/event-loop";
import type { Actor } from "./library";
import { codeParam, dynamicPatchFields, type DynamicRecord } from "./dynamicRecords";
import { prepareDynamicUpdate } from "./dynamicUpdate";
import { applyChanges, type PreparedChange } from "./preparedChange";
import { refuseUsedExternalIds } from "./recordExtras";
import { qrIdParam, staticPatchFields, type StaticRecord } from "./staticRecords";
import { prepareStaticUpdate } from "./staticUpdate";
import { batchArray, bodyObject } from "./validation";

export const staticBatchPatchInput = bodyObject({
  qrcodes: batchArray("qrcodes", bodyObject({ qr_id: qrIdParam, ...staticPatchFields })),
}).meta({ example: { qrcodes: [{ qr_id: "qr_0f3kq8m2x7c4v9b1n5z6a", name: "Lunch menu (winter)" }] } });

export const dynamicBatchPatchInput = bodyObject({
  dynqrcodes: batchArray("dynqrcodes", bodyObject({ code: codeParam, ...dynamicPatchFields })),
}).meta({ example: { dynqrcodes: [{ code: "a1B2c3D4", destination_url: "https://example.com/winter" }] } });

/** Prepares every item (none written): all prepared, or a refusal listing each refused item by index. */
async function prepareAll<I, R>(
  items: I[],
  idOf: (item: I) => string,
  prepare: (item: I) => Promise<PreparedChange<R>>,
): Promise<PreparedChange<R>[]> {
  const prepared: PreparedChange<R>[] = [];
  const refused: (BatchItemError & { code: DomainError["code"] })[] = [];
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    // One change per record: a second would be checked against what the first replaces.
    if (seen.has(idOf(item))) {
      refused.push({
        index,
        code: "invalid",
        error: `${idOf(item)} is already changed by an earlier item of the batch`,
      });
      continue;
    }
    seen.add(idOf(item));
    // Each item reads its record and may check a style's image: redirects waiting meanwhile go first.
    await yieldToIo();
    try {
      prepared.push(await prepare(item));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refused.push({ index, code: error.code, error: error.items?.[0]?.error ?? error.message });
    }
  }
  // The first refusal's kind is the answer's status (404 for an unknown code, 400, 403, 409…).
  if (refused.length > 0)
    throw new DomainError(
      refused[0].code,
      refused[0].error,
      refused.map(({ index, error }) => ({ index, error })),
    );
  return prepared;
}

/** The batch's external_ids against each other and the library (every item's own is no conflict). */
async function refuseClaims<R>(actor: Actor, changes: PreparedChange<R>[], batch: string) {
  const claims = changes.map((change) => change.claim);
  if (claims.length > 0) await refuseUsedExternalIds(claims[0].table, actor.library, claims, batch);
}

export async function updateStaticCodes(
  actor: Actor,
  input: z.infer<typeof staticBatchPatchInput>,
): Promise<{ updated: StaticRecord[] }> {
  const changes = await prepareAll(
    input.qrcodes,
    (item) => item.qr_id,
    (item) => prepareStaticUpdate(actor, item),
  );
  await refuseClaims(actor, changes, "qrcodes");
  return { updated: await applyChanges(actor.library, changes, "qrcodes") };
}

export async function updateDynamicCodes(
  actor: Actor,
  input: z.infer<typeof dynamicBatchPatchInput>,
): Promise<{ updated: DynamicRecord[] }> {
  const changes = await prepareAll(
    input.dynqrcodes,
    (item) => item.code,
    (item) => prepareDynamicUpdate(actor, item),
  );
  await refuseClaims(actor, changes, "dynqrcodes");
  return { updated: await applyChanges(actor.library, changes, "dynqrcodes") };
}
