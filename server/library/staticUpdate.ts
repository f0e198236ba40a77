// A static code's PATCH (contract Part 3): url, name, style, metadata, external_id; prepared
// outside the transaction so that a batch PATCH writes many in one (./batchUpdate.ts). A static
// code has nothing held for review: its image encodes the URL itself, so a change makes a new
// image rather than changing where printed ones lead (README "Reading one record, changing many").
import { isRecordMissing } from "../platform/db";
import { DomainError, invalid } from "../platform/errors";
import { capacityProblem } from "../images/qrImage";
import { resolvedStyle } from "../images/qrStyle";
import { refuseUnreadableStyles } from "../images/readableStyles";
import { changedFields } from "../teams/pendingChanges";
import { recordCodeActivity, type Actor } from "./library";
import { applyChange, type PreparedChange } from "./preparedChange";
import { extrasColumnsOf, refuseUsedExternalIds } from "./recordExtras";
import { refuseStale, staleSave, type LastSeen } from "./staleSave";
import { findStaticCode, staticDestinations } from "./staticCodes";
import { staticRecordOf, type StaticPatchInput, type StaticRecord } from "./staticRecords";
import { refuseServedShortLinks } from "./validation";

const FIELDS = ["url", "name", "style", "metadata", "external_id"] as const;

/** Checks a PATCH against the stored code (404, 412, 400, 409) and returns its write. */
export async function prepareStaticUpdate(
  actor: Actor,
  input: StaticPatchInput,
  lastSeen?: LastSeen,
): Promise<PreparedChange<StaticRecord>> {
  if (FIELDS.every((field) => input[field] === undefined))
    throw new DomainError("invalid", `Send at least one of ${FIELDS.join(", ")}`);
  if (input.url !== undefined) refuseServedShortLinks(actor.servedHosts, staticDestinations({ url: input.url }));
  const row = await findStaticCode(actor.library, input.qr_id);
  refuseStale(row.updatedAt, lastSeen);
  if (input.url !== undefined || input.style !== undefined) {
    // The image encodes the URL: the new pair must still fit and scan.
    const url = input.url ?? row.url;
    const style = input.style ?? JSON.parse(row.style);
    const problem = capacityProblem(url, resolvedStyle(style).error_correction);
    if (problem) throw invalid(`url ${problem}`);
    await refuseUnreadableStyles([{ text: url, style }]);
  }
  const claim = { table: "staticCode" as const, self: row.id, externalId: input.external_id };
  await refuseUsedExternalIds(claim.table, actor.library, [claim], null);
  const data = {
    ...(input.url !== undefined ? { url: input.url } : {}),
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.style !== undefined ? { style: JSON.stringify(input.style) } : {}),
    ...extrasColumnsOf(input),
  };
  return {
    held: false,
    claim,
    write: async (tx) => {
      // With a precondition, written only if no other save came since it was checked.
      const stored = await tx.staticCode
        .update({ where: { id: row.id, ...(lastSeen ? { updatedAt: row.updatedAt } : {}) }, data })
        .catch((error) => {
          throw lastSeen && isRecordMissing(error) ? staleSave(lastSeen) : error;
        });
      const [before, after] = [staticRecordOf(row), staticRecordOf(stored)];
      const change = changedFields(before, after);
      if (change)
        await recordCodeActivity(tx, actor, "code.updated", [
          { kind: "static", target: row.id, name: stored.name, ...change },
        ]);
      return { result: after, events: [{ type: "qrcode.updated", data: after }] };
    },
  };
}

export async function updateStaticCode(actor: Actor, input: StaticPatchInput, lastSeen?: LastSeen) {
  return (await applyChange(actor.library, await prepareStaticUpdate(actor, input, lastSeen))).record;
}
