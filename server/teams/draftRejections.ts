// Rejected drafts (./draftReview.ts): a rejection carries the admin's reason, which the
// draft's writer sees on /business and is mailed; and a draft decided once (another admin,
// another tab) is answered with who decided it and when, not as if it never existed.
import { db, type Tx } from "../platform/db";
import { DomainError, notFound } from "../platform/errors";
import { timeOrderedId } from "../platform/ids";
import { appLink, sendMail } from "../platform/mail";

/** A draft as it is rejected: what its writer is told it was. */
export type RejectedDraft = { kind: "static" | "dynamic"; target: string; name: string; url: string; writerId: string };

/** What /business shows a writer of their rejected drafts. */
export type DraftRejectionItem = {
  kind: string;
  target: string;
  name: string;
  url: string;
  reason: string;
  by: string;
  at: string;
};

/** The most recent rejections a writer is shown. */
const SHOWN = 20;

/** Kept in the review's transaction: rejected with the drafts, or not at all. */
export async function recordDraftRejections(
  tx: Tx,
  teamId: string,
  drafts: RejectedDraft[],
  reason: string,
  adminEmail: string,
  at: Date,
): Promise<void> {
  await tx.draftRejection.createMany({
    data: drafts.map((d) => ({
      id: timeOrderedId("drj"),
      teamId,
      writerId: d.writerId,
      kind: d.kind,
      target: d.target,
      name: d.name,
      url: d.url,
      reason,
      rejectedBy: adminEmail,
      createdAt: at,
    })),
  });
}

/** Each writer is mailed once per review, every rejected draft of theirs listed (a deleted account is not mailed). */
export async function mailDraftRejections(drafts: RejectedDraft[], reason: string, adminEmail: string): Promise<void> {
  const byWriter = new Map<string, RejectedDraft[]>();
  for (const d of drafts) byWriter.set(d.writerId, [...(byWriter.get(d.writerId) ?? []), d]);
  const writers = await db.user.findMany({
    where: { id: { in: [...byWriter.keys()] }, deletedAt: null },
    select: { id: true, email: true },
  });
  for (const writer of writers) {
    const own = byWriter.get(writer.id)!;
    await sendMail({
      to: writer.email,
      subject:
        own.length === 1 ? `Your draft “${own[0].name}” was rejected` : `${own.length} of your drafts were rejected`,
      paragraphs: [
        `${adminEmail} rejected ${own.length === 1 ? "your draft" : "your drafts"}: ${own.map((d) => `“${d.name}” (${d.url})`).join(", ")}. A rejected draft is deleted; submit it again once it is fixed.`,
        `Reason: ${reason}`,
      ],
      action: { label: "Open the team library", url: appLink("/business") },
    });
  }
}

/** The writer's own rejected drafts in their team, newest first. */
export async function draftRejectionsOf(userId: string): Promise<DraftRejectionItem[]> {
  const membership = await db.membership.findUnique({ where: { userId } });
  if (!membership) return [];
  const rows = await db.draftRejection.findMany({
    where: { teamId: membership.teamId, writerId: userId },
    orderBy: { createdAt: "desc" },
    take: SHOWN,
  });
  return rows.map((r) => ({
    kind: r.kind,
    target: r.target,
    name: r.name,
    url: r.url,
    reason: r.reason,
    by: r.rejectedBy,
    at: r.createdAt.toISOString(),
  }));
}

const stamp = (at: Date) => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * Why one draft of the team cannot be reviewed: decided already (409, by whom and when), or
 * not a draft of the team at all (404).
 */
export async function undecidableDraft(
  tx: Tx,
  teamId: string,
  kind: "static" | "dynamic",
  id: string,
): Promise<DomainError> {
  const decided = (how: string, by: string | null | undefined, at: Date | null) =>
    new DomainError("conflict", `This draft was already ${how}${by ? ` by ${by}` : ""}${at ? ` at ${stamp(at)}` : ""}`);
  const rejection = await tx.draftRejection.findFirst({
    where: { teamId, kind, target: id },
    orderBy: { createdAt: "desc" },
  });
  if (rejection) return decided("rejected", rejection.rejectedBy, rejection.createdAt);
  const reviewer = { reviewedBy: { select: { email: true } } } as const;
  const row =
    kind === "static"
      ? await tx.staticCode.findFirst({ where: { id, teamId }, include: reviewer })
      : await tx.dynamicCode.findFirst({ where: { code: id, teamId }, include: reviewer });
  if (!row?.reviewedAt) return notFound("No such draft in your team");
  // A rejection deletes a dynamic draft at the moment it is reviewed; a later deletion is not one.
  const rejected = "deletedAt" in row && row.deletedAt?.getTime() === row.reviewedAt.getTime();
  return decided(rejected ? "rejected" : "approved", row.reviewedBy?.email, row.reviewedAt);
}
