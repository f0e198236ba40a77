// An admin's review of writers' pending changes to published team codes (./pendingChanges.ts):
// the queue on /business lists them with before and after; Approve change applies one (the
// short link moves, dynqrcode.updated is sent), Reject change drops it with a reason that the
// writer sees on the code and is mailed.
import { z } from "zod";
import { db } from "../platform/db";
import { DomainError, invalid, notFound } from "../platform/errors";
import { appLink, sendMail } from "../platform/mail";
import { invalidateResolution } from "../scan/resolve";
import { changeWithEvents } from "../webhooks";
import { dynamicRecordOf, shortUrl } from "../library/dynamicRecords";
import { recordCodeActivity, type Library } from "../library/library";
import {
  approvedColumns,
  changedFields,
  pendingComparison,
  storedChangeOf,
  type ChangeRejection,
  type PendingFields,
} from "./pendingChanges";
import { membershipOf, requireAdmin } from "./teams";
import type { Decision } from "./draftReview";
import type { ActivityValue } from "../activity";
import type { DynamicType } from "../hosted/content";

export const rejectionReasonField = z
  .string()
  .trim()
  .min(1, "Write the reason for the writer")
  .max(500, "The reason must be at most 500 characters");

/** A pending change as the queue shows it: the code, who asked and when, its fields now and as asked. */
export type PendingChangeItem = {
  code: string;
  name: string;
  shortUrl: string;
  by: string;
  createdAt: string;
  /** The code's type now (a change may ask for another): the page reads a hosted content by it. */
  type: DynamicType;
  before: Record<string, ActivityValue>;
  after: Record<string, ActivityValue>;
};

/** The team's pending changes, oldest first (the order they came in): for any member, as the queue and the writer's own view. */
export async function pendingChangesOf(userId: string): Promise<PendingChangeItem[]> {
  const membership = await membershipOf(userId);
  if (!membership) throw new DomainError("forbidden", "You are not in a team");
  const rows = await db.dynamicCode.findMany({
    where: { teamId: membership.teamId, deletedAt: null, pendingChange: { not: null } },
    orderBy: { id: "asc" },
    take: 200,
  });
  return rows.map((row) => {
    const stored = storedChangeOf(row.pendingChange)!;
    return {
      code: row.code,
      name: row.name,
      shortUrl: shortUrl(row.code, row.domain),
      by: stored.by,
      createdAt: new Date(stored.created_at * 1000).toISOString(),
      type: row.type as DynamicType,
      ...pendingComparison(dynamicRecordOf(row), stored.fields),
    };
  });
}

const describe = (fields: PendingFields) =>
  Object.keys(fields)
    .map((name) => (name === "password_set" ? "password" : name))
    .join(", ");

/**
 * An admin's decision on the pending change of one team code. Approve: its fields apply (the
 * short link serves them from now on). Reject: it is dropped, and its writer is told why.
 */
export async function reviewChange(
  adminId: string,
  decision: Decision,
  code: string,
  reason?: string,
): Promise<{ ok: true }> {
  const admin = await requireAdmin(adminId);
  const adminEmail = (await db.user.findUniqueOrThrow({ where: { id: adminId }, select: { email: true } })).email;
  const why = decision === "reject" ? (reason?.trim() ?? "") : null;
  if (why === "") throw invalid("Write the reason for the writer");
  const library: Library = { kind: "team", teamId: admin.teamId };
  const actor = { userId: adminId, library };
  const now = new Date();
  const done = await changeWithEvents(library, async (tx) => {
    const row = await tx.dynamicCode.findFirst({ where: { code, teamId: admin.teamId, deletedAt: null } });
    const stored = storedChangeOf(row?.pendingChange);
    if (!row || !stored) throw notFound("No such pending change in your team");
    // Decided once: a change replaced or decided meanwhile (another admin, another tab) is not this one.
    const claimed = await tx.dynamicCode.updateMany({
      where: { id: row.id, pendingChange: row.pendingChange },
      data:
        decision === "approve"
          ? { ...approvedColumns(stored), pendingChange: null, changeRejection: null }
          : {
              pendingChange: null,
              changeRejection: JSON.stringify({
                reason: why!,
                by: adminEmail,
                at: now.toISOString(),
                fields: stored.fields,
              } satisfies ChangeRejection),
            },
    });
    if (claimed.count !== 1)
      throw new DomainError("conflict", "This change was replaced or decided meanwhile: reload the queue");
    const ref = { kind: "dynamic" as const, target: row.code, name: row.name };
    if (decision === "reject") {
      await recordCodeActivity(tx, actor, "code.change_rejected", [
        {
          ...ref,
          ...pendingComparison(dynamicRecordOf(row), stored.fields),
          more: { requested_by: stored.by, reason: why },
        },
      ]);
      return { result: { ...stored, domain: row.domain }, events: [] };
    }
    const after = dynamicRecordOf(await tx.dynamicCode.findUniqueOrThrow({ where: { id: row.id } }));
    const change = changedFields(dynamicRecordOf(row), after) ?? pendingComparison(after, stored.fields);
    await recordCodeActivity(tx, actor, "code.change_approved", [
      { ...ref, ...change, more: { requested_by: stored.by } },
    ]);
    return { result: { ...stored, domain: row.domain }, events: [{ type: "dynqrcode.updated" as const, data: after }] };
  });
  if (decision === "approve") await invalidateResolution(code);
  else await mailRejection(done.by_id, code, done.domain, why!, done.fields, adminEmail);
  return { ok: true };
}

/** The writer learns why, at their address now (a deleted account is not mailed). */
async function mailRejection(
  writerId: string,
  code: string,
  domain: string,
  reason: string,
  fields: PendingFields,
  adminEmail: string,
) {
  const writer = await db.user.findUnique({ where: { id: writerId }, select: { email: true, deletedAt: true } });
  if (!writer || writer.deletedAt) return;
  await sendMail({
    to: writer.email,
    subject: `Your change to ${code} was rejected`,
    paragraphs: [
      `${adminEmail} rejected your change to ${describe(fields)} of the code ${code} (${shortUrl(code, domain)}). The code keeps leading where it did.`,
      `Reason: ${reason}`,
    ],
    action: { label: "Open the team library", url: appLink("/business") },
  });
}
