// A dynamic code's PATCH, prepared outside the transaction so that a batch PATCH writes many in
// one (./batchUpdate.ts). A writer's change to where a published team code leads is held back as
// its pending change (../teams/pendingChanges.ts) while the rest applies: `held` says so (/v1
// answers 202). dynqrcode.updated is sent when something applied, not for a held change alone.
import { z } from "zod";
import { db, isRecordMissing } from "../platform/db";
import { DomainError, fromZodIssues } from "../platform/errors";
import { invalidateResolution } from "../scan/resolve";
import { RULE_FIELDS } from "../rules";
import { refuseUnreadableStyles } from "../images/readableStyles";
import { changedFields, heldPart, needsAdmin, pendingComparison, storedChange } from "../teams/pendingChanges";
import { recordCodeActivity, type Actor } from "./library";
import { dynamicDestinations, findDynamicCode, ruleColumnsOf } from "./dynamicCodes";
import { checkStatusChange } from "./dynamicStatuses";
import { dynamicRecordOf, shortUrl, type DynamicRecord, type dynamicPatchInput } from "./dynamicRecords";
import { applyChange, type PreparedChange } from "./preparedChange";
import { extrasColumnsOf, refuseUsedExternalIds } from "./recordExtras";
import { refuseStale, staleSave, type LastSeen } from "./staleSave";
import { refuseServedShortLinks } from "./validation";
import { withPresetStyles } from "../stylePresets/stylePresets";
import { checkDynamicTyped, hostedOfRow, typedColumns, type DynamicTyped } from "../hosted/content";

type DynamicPatch = z.infer<typeof dynamicPatchInput>;
const FIELDS = [
  "type",
  "destination_url",
  "content",
  "name",
  "status",
  "style",
  "style_preset",
  ...RULE_FIELDS,
  "metadata",
  "external_id",
] as const;

/** Checks a PATCH against the stored code (404, 412, 400, 403, 409) and returns its write. */
export async function prepareDynamicUpdate(
  actor: Actor,
  sent: DynamicPatch,
  lastSeen?: LastSeen,
): Promise<PreparedChange<DynamicRecord>> {
  if (FIELDS.every((field) => sent[field] === undefined))
    throw new DomainError("invalid", `Send at least one of ${FIELDS.join(", ")}`);
  const [input] = await withPresetStyles(actor.library, [sent], null);
  const { code, name, status, style } = input;
  refuseServedShortLinks(actor.servedHosts, dynamicDestinations(input));
  const row = await findDynamicCode(actor.library, code);
  refuseStale(row.updatedAt, lastSeen);
  await refuseUnreadableStyles([{ text: shortUrl(code, row.domain), style }]);
  if (status !== undefined && status !== row.status) checkStatusChange(actor, status);
  const claim = { table: "dynamicCode" as const, self: row.id, externalId: input.external_id };
  await refuseUsedExternalIds(claim.table, actor.library, [claim], null);
  const now = new Date();
  const review = status === "active" && row.status === "draft" ? { reviewedById: actor.userId, reviewedAt: now } : {};
  // Only an admin sets a team code active: from then on it is published.
  const publish = status === "active" && row.teamId !== null && row.publishedAt === null ? { publishedAt: now } : {};
  const typed = changedTyped(row, input);
  const held = needsAdmin(actor, row.publishedAt !== null) ? heldPart({ ...input, ...heldTyped(row, typed) }) : null;
  const rules = await ruleColumnsOf(input);
  const applied = {
    ...(typed && !held ? typedColumns(typed) : {}),
    ...(name !== undefined ? { name: name.trim() } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(style !== undefined ? { style: JSON.stringify(style) } : {}),
    ...(held ? {} : rules),
    ...extrasColumnsOf(input),
  };
  const somethingApplied = Object.keys(applied).length > 0;
  const by = held && {
    id: actor.userId,
    email: (await db.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { email: true } })).email,
  };
  return {
    held: held !== null,
    claim,
    write: async (tx) => {
      // With a precondition, written only if no other save came since it was checked.
      const stored = await tx.dynamicCode
        .update({
          where: { id: row.id, ...(lastSeen ? { updatedAt: row.updatedAt } : {}) },
          data: {
            ...applied,
            ...review,
            ...publish,
            // A held change replaces the pending one, and the last rejection is no longer news; the live fields keep their time.
            ...(held && by
              ? {
                  pendingChange: storedChange(held, by, rules.passwordHash, now),
                  changeRejection: null,
                  ...(somethingApplied ? {} : { updatedAt: row.updatedAt }),
                }
              : {}),
          },
        })
        .catch((error) => {
          throw lastSeen && isRecordMissing(error) ? staleSave(lastSeen) : error;
        });
      const [before, after] = [dynamicRecordOf(row), dynamicRecordOf(stored)];
      const ref = { kind: "dynamic" as const, target: code, name: stored.name };
      const change = changedFields(before, after);
      if (change) await recordCodeActivity(tx, actor, "code.updated", [{ ...ref, ...change }]);
      if (held)
        await recordCodeActivity(tx, actor, "code.change_requested", [{ ...ref, ...pendingComparison(after, held) }]);
      const events = held && !somethingApplied ? [] : [{ type: "dynqrcode.updated" as const, data: after }];
      return { result: after, events };
    },
    committed: async () => {
      if (!held || somethingApplied) await invalidateResolution(code);
    },
  };
}

type DynamicRow = Awaited<ReturnType<typeof findDynamicCode>>;

/**
 * The type, destination and content after a PATCH that sends any of them, or null: a field not
 * sent keeps its stored value while the type stays; a new type takes its own destination_url or
 * content (as a static code's PATCH, docs/TYPES.md).
 */
function changedTyped(row: DynamicRow, input: DynamicPatch): DynamicTyped | null {
  if (input.type === undefined && input.destination_url === undefined && input.content === undefined) return null;
  const stored = hostedOfRow(row);
  const type = input.type ?? (row.type as DynamicTyped["type"]);
  const kept = type === row.type;
  const destination =
    input.destination_url !== undefined ? input.destination_url : kept && !stored ? row.destinationUrl : undefined;
  const content = input.content !== undefined ? input.content : kept ? stored?.content : undefined;
  const { issues, typed } = checkDynamicTyped(type, destination, content);
  if (issues.length > 0) throw fromZodIssues(issues);
  return typed;
}

/**
 * What a writer's change of type, destination or content holds for review: the destination alone
 * between two `url` states (as before there were types), else the whole new type, destination and content.
 */
function heldTyped(row: DynamicRow, typed: DynamicTyped | null) {
  const none = { type: undefined, destination_url: undefined, content: undefined };
  if (!typed) return none;
  if (typed.type === "url" && row.type === "url") return { ...none, destination_url: typed.destinationUrl! };
  return { type: typed.type, destination_url: typed.destinationUrl, content: typed.content };
}

export async function updateDynamicCode(
  actor: Actor,
  input: DynamicPatch,
  lastSeen?: LastSeen,
): Promise<{ record: DynamicRecord; held: boolean }> {
  return applyChange(actor.library, await prepareDynamicUpdate(actor, input, lastSeen));
}
