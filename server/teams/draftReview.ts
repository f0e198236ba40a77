// The review of a team's drafts: an admin approves them (live from then on) or rejects them
// with a reason (./draftRejections.ts tells their writers), all or none. Changes to published
// codes are reviewed in ./changeReview.ts.
import { DomainError, notFound } from "../platform/errors";
import { actorOf, recordActivity } from "../activity";
import { invalidateResolution } from "../scan/resolve";
import { changeWithEvents } from "../webhooks";
import { dynamicRecordOf } from "../library/dynamicRecords";
import type { Library } from "../library/library";
import { staticRecordOf, staticShownText, typedFieldsOfRow } from "../library/staticRecords";
import { dynamicShownText } from "../hosted/shown";
import { mailDraftRejections, recordDraftRejections, undecidableDraft, type RejectedDraft } from "./draftRejections";
import { requireAdmin, type ItemKind } from "./teams";

export const DECISIONS = ["approve", "reject"] as const;
export type Decision = (typeof DECISIONS)[number];
/** The most drafts one review decides: a page of the queue, with room to spare. */
export const MAX_REVIEWED = 100;

/**
 * An admin's decision on drafts of the team, all of them or none (one transaction): approve
 * makes each active (a dynamic code starts resolving); reject deletes each (a dynamic code's
 * record stays, deleted, so its code is never reused). Who and when are kept on both.
 */
export async function reviewDrafts(
  adminId: string,
  decision: Decision,
  items: { kind: ItemKind; id: string }[],
  reason?: string,
): Promise<{ reviewed: number }> {
  const why = decision === "reject" ? (reason?.trim() ?? "") : null;
  if (why === "") throw new DomainError("invalid", "Write the reason for the writer");
  const admin = await requireAdmin(adminId);
  const ids = (kind: ItemKind) => [...new Set(items.filter((i) => i.kind === kind).map((i) => i.id))];
  const [statics, dynamics] = [ids("static"), ids("dynamic")];
  const teamId = admin.teamId;
  const reviewed = { reviewedById: adminId, reviewedAt: new Date() };
  const library: Library = { kind: "team", teamId };
  const rejected: RejectedDraft[] = [];
  let rejectedBy = "";
  await changeWithEvents(library, async (tx) => {
    rejected.length = 0;
    const staticWhere = { id: { in: statics }, teamId, reviewStatus: "draft" };
    const dynamicWhere = { code: { in: dynamics }, teamId, deletedAt: null, status: "draft" };
    // The drafts as they are: a rejection's events show them so.
    const [staticRows, dynamicRows] = [
      await tx.staticCode.findMany({ where: staticWhere }),
      await tx.dynamicCode.findMany({ where: dynamicWhere }),
    ];
    const [s, d] =
      decision === "approve"
        ? [
            await tx.staticCode.updateMany({ where: staticWhere, data: { reviewStatus: "active", ...reviewed } }),
            // Approved: published from now on (a writer's later change to where it leads waits for review).
            await tx.dynamicCode.updateMany({
              where: dynamicWhere,
              data: { status: "active", publishedAt: reviewed.reviewedAt, ...reviewed },
            }),
          ]
        : [
            await tx.staticCode.deleteMany({ where: staticWhere }),
            await tx.dynamicCode.updateMany({
              where: dynamicWhere,
              data: { deletedAt: reviewed.reviewedAt, ...reviewed },
            }),
          ];
    // One that is no longer a draft of the team (reviewed meanwhile, deleted, another team's) undoes them all.
    if (s.count !== statics.length || d.count !== dynamics.length) {
      const asked = statics.length + dynamics.length;
      const missing = asked - s.count - d.count;
      if (asked === 1)
        throw await undecidableDraft(
          tx,
          teamId,
          statics.length === 1 ? "static" : "dynamic",
          statics[0] ?? dynamics[0],
        );
      throw notFound(
        `${missing} of ${asked} selected drafts ${missing === 1 ? "is no longer a draft" : "are no longer drafts"} in your team: nothing was changed`,
      );
    }
    const type = decision === "approve" ? "draft.approved" : "draft.rejected";
    const actor = await actorOf(adminId, tx);
    if (why !== null) {
      rejected.push(
        ...staticRows.map((r) => ({
          kind: "static" as const,
          target: r.id,
          name: r.name,
          url: staticShownText(typedFieldsOfRow(r)),
          writerId: r.createdById,
        })),
        ...dynamicRows.map((r) => ({
          kind: "dynamic" as const,
          target: r.code,
          name: r.name,
          url: dynamicShownText(r),
          writerId: r.createdById,
        })),
      );
      rejectedBy = actor.label;
      await recordDraftRejections(tx, teamId, rejected, why, rejectedBy, reviewed.reviewedAt);
    }
    await recordActivity(
      [
        ...staticRows.map((r) => ({ target: r.id, name: r.name, kind: "static" })),
        ...dynamicRows.map((r) => ({ target: r.code, name: r.name, kind: "dynamic" })),
      ].map((item) => ({
        teamId,
        actor,
        action: type,
        target: item.target,
        // Before and after, as every change to team data: approved drafts go live, rejected ones are deleted.
        detail: {
          name: item.name,
          kind: item.kind,
          before: { status: "draft" },
          after: decision === "approve" ? { status: "active" } : null,
          ...(why !== null ? { reason: why } : {}),
        },
      })),
      tx,
    );
    // Approved: read again, as /v1 now lists them (status, updated_at); rejected: as they were, like a deletion's event.
    const [staticsNow, dynamicsNow] =
      decision === "approve"
        ? [
            await tx.staticCode.findMany({ where: { id: { in: statics }, teamId } }),
            await tx.dynamicCode.findMany({ where: { code: { in: dynamics }, teamId, deletedAt: null } }),
          ]
        : [staticRows, dynamicRows];
    const records = [...staticsNow.map(staticRecordOf), ...dynamicsNow.map(dynamicRecordOf)];
    return { result: null, events: records.map((data) => ({ type, data })) };
  });
  await Promise.all(dynamics.map((code) => invalidateResolution(code)));
  if (why !== null) await mailDraftRejections(rejected, why, rejectedBy);
  return { reviewed: statics.length + dynamics.length };
}
