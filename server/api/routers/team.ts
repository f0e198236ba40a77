// The /business page's calls (session procedures): teams are never managed through /v1.
import { z } from "zod";
import {
  createTeam,
  generateBusinessKey,
  itemKind,
  removeMember,
  revokeTeamKey,
  roleField,
  setMemberRole,
  teamNameField,
  teamOverview,
  transferOwnership,
} from "../../teams/teams";
import { DECISIONS, MAX_REVIEWED, reviewDrafts } from "../../teams/draftReview";
import { pendingChangesOf, rejectionReasonField, reviewChange } from "../../teams/changeReview";
import { codeParam } from "../../library/dynamicRecords";
import { draftRejectionsOf } from "../../teams/draftRejections";
import { createTRPCRouter, sessionProcedure } from "../trpc";

const item = z.object({ kind: itemKind, id: z.string() });
const done = { ok: true as const };

export const teamRouter = createTRPCRouter({
  overview: sessionProcedure.query(({ ctx }) => teamOverview(ctx.session.userId)),
  create: sessionProcedure
    .input(z.object({ name: teamNameField }))
    .mutation(({ ctx, input }) => createTeam(ctx.session.userId, input.name).then(() => done)),
  setRole: sessionProcedure
    .input(z.object({ userId: z.string(), role: roleField }))
    .mutation(({ ctx, input }) => setMemberRole(ctx.session.userId, input.userId, input.role).then(() => done)),
  removeMember: sessionProcedure
    .input(z.object({ userId: z.string() }))
    .mutation(({ ctx, input }) => removeMember(ctx.session.userId, input.userId).then(() => done)),
  /** The owner hands the team to another admin (Make owner). */
  makeOwner: sessionProcedure
    .input(z.object({ userId: z.string() }))
    .mutation(({ ctx, input }) => transferOwnership(ctx.session.userId, input.userId).then(() => done)),
  generateKey: sessionProcedure.mutation(({ ctx }) => generateBusinessKey(ctx.session.userId)),
  revokeKey: sessionProcedure
    .input(z.object({ keyId: z.string() }))
    .mutation(({ ctx, input }) => revokeTeamKey(ctx.session.userId, input.keyId).then(() => done)),
  approve: sessionProcedure
    .input(item)
    .mutation(({ ctx, input }) => reviewDrafts(ctx.session.userId, "approve", [input]).then(() => done)),
  /** Reject: with the reason the draft's writer sees on /business and is mailed. */
  reject: sessionProcedure
    // Missing or blank, the domain answers "Write the reason for the writer".
    .input(item.extend({ reason: rejectionReasonField.optional() }))
    .mutation(({ ctx, input }) =>
      reviewDrafts(ctx.session.userId, "reject", [{ kind: input.kind, id: input.id }], input.reason).then(() => done),
    ),
  /** The member's own drafts an admin rejected, with the reasons. */
  draftRejections: sessionProcedure.query(({ ctx }) => draftRejectionsOf(ctx.session.userId)),
  /** Writers' pending changes to published codes, with before and after (the review queue's second list). */
  pendingChanges: sessionProcedure.query(({ ctx }) => pendingChangesOf(ctx.session.userId)),
  /** Approve change / Reject change (with the reason the writer is mailed). */
  reviewChange: sessionProcedure
    .input(
      z.object({
        code: codeParam,
        decision: z.enum(DECISIONS, { error: "decision must be one of approve, reject" }),
        reason: rejectionReasonField.optional(),
      }),
    )
    .mutation(({ ctx, input }) => reviewChange(ctx.session.userId, input.decision, input.code, input.reason)),
  /** The review queue's bulk Approve / Reject: every selected draft or none. */
  review: sessionProcedure
    .input(
      z.object({
        decision: z.enum(DECISIONS, { error: "decision must be one of approve, reject" }),
        items: z
          .array(item)
          .min(1, "Select at least one draft")
          .max(MAX_REVIEWED, `Select at most ${MAX_REVIEWED} drafts`),
        /** Required to reject. */
        reason: rejectionReasonField.optional(),
      }),
    )
    .mutation(({ ctx, input }) => reviewDrafts(ctx.session.userId, input.decision, input.items, input.reason)),
});
