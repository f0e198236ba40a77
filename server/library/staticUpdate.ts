// A static code's PATCH (contract Part 3): url, name, style, metadata, external_id; prepared
// outside the transaction so that a batch PATCH writes many in one (./batchUpdate.ts). A static
// code has nothing held for review: its image encodes the URL itself, so a change makes a new
// image rather than changing where printed ones lead (README "Reading one record, changing many").
import { isRecordMissing } from "../platform/db";
import { DomainError, fromZodIssues, invalid } from "../platform/errors";
import type { AnyContent } from "../codeTypes/content";
import { typedFieldIssues, type TypedFields } from "../codeTypes/typedFields";
import { refuseUnreadableStyles } from "../images/readableStyles";
import { changedFields } from "../teams/pendingChanges";
import { recordCodeActivity, type Actor } from "./library";
import { applyChange, type PreparedChange } from "./preparedChange";
import { extrasColumnsOf, refuseUsedExternalIds } from "./recordExtras";
import { refuseStale, staleSave, type LastSeen } from "./staleSave";
import { findStaticCode, staticDestinations, storedTyped } from "./staticCodes";
import {
  payloadCapacityProblem,
  staticPayload,
  staticRecordOf,
  typedFieldsOfRow,
  type StaticPatchInput,
  type StaticRecord,
} from "./staticRecords";

type StaticRow = Awaited<ReturnType<typeof findStaticCode>>;
import { refuseServedShortLinks } from "./validation";
import { withPresetStyles } from "../stylePresets/stylePresets";

const FIELDS = ["type", "url", "content", "name", "style", "style_preset", "metadata", "external_id"] as const;

/** Checks a PATCH against the stored code (404, 412, 400, 409) and returns its write. */
export async function prepareStaticUpdate(
  actor: Actor,
  sent: StaticPatchInput,
  lastSeen?: LastSeen,
): Promise<PreparedChange<StaticRecord>> {
  if (FIELDS.every((field) => sent[field] === undefined))
    throw new DomainError("invalid", `Send at least one of ${FIELDS.join(", ")}`);
  const [input] = await withPresetStyles(actor.library, [sent], null);
  if (input.url !== undefined) refuseServedShortLinks(actor.servedHosts, staticDestinations({ url: input.url }));
  const row = await findStaticCode(actor.library, input.qr_id);
  refuseStale(row.updatedAt, lastSeen);
  const typed = changedTyped(row, input);
  if (typed || input.style !== undefined) {
    // The image encodes the payload: the new pair must still fit and scan.
    const fields = typed ?? typedFieldsOfRow(row);
    const style = input.style ?? JSON.parse(row.style);
    const problem = payloadCapacityProblem(fields, style);
    if (problem) throw invalid(problem);
    await refuseUnreadableStyles([{ text: staticPayload(fields), style }]);
  }
  const claim = { table: "staticCode" as const, self: row.id, externalId: input.external_id };
  await refuseUsedExternalIds(claim.table, actor.library, [claim], null);
  const data = {
    ...(typed ? storedTyped(typed) : {}),
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

/**
 * The type, url and content after a PATCH that sends any of them, or null: a field not sent keeps
 * its stored value while the type stays; a new type takes its own url or content (docs/TYPES.md).
 */
function changedTyped(row: StaticRow, input: Omit<StaticPatchInput, "style_preset">): TypedFields | null {
  if (input.type === undefined && input.url === undefined && input.content === undefined) return null;
  const stored = typedFieldsOfRow(row);
  const type = input.type ?? stored.type;
  const kept = type === stored.type;
  const url = input.url !== undefined ? input.url : kept ? stored.url : undefined;
  const content = input.content !== undefined ? input.content : kept ? stored.content : undefined;
  const issues = typedFieldIssues(type, url, content);
  if (issues.length > 0) throw fromZodIssues(issues);
  return type === "url" ? { type, url: url!, content: null } : { type, url: null, content: content as AnyContent };
}

export async function updateStaticCode(actor: Actor, input: StaticPatchInput, lastSeen?: LastSeen) {
  return (await applyChange(actor.library, await prepareStaticUpdate(actor, input, lastSeen))).record;
}
