// /v1/dynqrcodes: dynamic QR codes (their routes: the meta of each procedure).
import { z } from "zod";
import { createDynamicCodes, deleteDynamicCode, getDynamicCode, listDynamicCodes } from "../../library/dynamicCodes";
import { updateDynamicCode } from "../../library/dynamicUpdate";
import { dynamicBatchPatchInput, updateDynamicCodes } from "../../library/batchUpdate";
import {
  codeParam,
  dynamicBatchInput,
  dynamicCodeInput,
  dynamicPatchInput,
  dynamicRecord,
} from "../../library/dynamicRecords";
import { analyticsSummary, codeAnalytics } from "../../analytics/analytics";
import { analyticsSummaryRecord, codeAnalyticsQuery, codeAnalyticsRecord } from "../../analytics/analyticsRecords";
import { rangeQuery } from "../../analytics/dateRange";
import { dynamicListQuery } from "../../library/listFilters";
import { batchDeleteInput, deleteDynamicCodes } from "../../library/batchDelete";
import { apiKeyProcedure, createTRPCRouter } from "../trpc";

const created = z.object({ created: z.array(dynamicRecord) });
const TAGS = ["Dynamic QR codes"];

export const dynqrcodesRouter = createTRPCRouter({
  list: apiKeyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/dynqrcodes",
        tags: TAGS,
        summary: "List dynamic QR codes: newest first, or filtered and sorted",
      },
      cachedByLibraryVersion: true,
    })
    .input(dynamicListQuery)
    .output(z.object({ dynqrcodes: z.array(dynamicRecord), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => listDynamicCodes(ctx.principal.library, input)),

  analyticsSummary: apiKeyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/dynqrcodes/analytics",
        tags: TAGS,
        summary: "Scans of every dynamic QR code of the library in a range of days",
      },
    })
    .input(rangeQuery)
    .output(analyticsSummaryRecord)
    .query(({ ctx, input }) => analyticsSummary(ctx.principal.library, input)),

  analytics: apiKeyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/dynqrcodes/{code}/analytics",
        tags: TAGS,
        summary: "One code's scans: totals, every day, countries, devices, systems, browsers",
      },
    })
    .input(rangeQuery.extend({ code: codeParam, ...codeAnalyticsQuery.shape }))
    .output(codeAnalyticsRecord)
    .query(({ ctx, input }) => codeAnalytics(ctx.principal.library, input.code, input)),

  createBatch: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/dynqrcodes/batch",
        tags: TAGS,
        summary: "Create 1 to 50 dynamic QR codes, all or nothing",
        successDescription: "Created",
      },
      created: true,
    })
    .input(dynamicBatchInput)
    .output(created)
    .mutation(async ({ ctx, input }) => ({
      created: await createDynamicCodes(ctx.principal, input.dynqrcodes, { batch: true }),
    })),

  create: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/dynqrcodes",
        tags: TAGS,
        summary: "Create a dynamic QR code",
        successDescription: "Created",
      },
      created: true,
    })
    .input(dynamicCodeInput)
    .output(created)
    .mutation(async ({ ctx, input }) => ({ created: await createDynamicCodes(ctx.principal, [input]) })),

  get: apiKeyProcedure
    .meta({ openapi: { method: "GET", path: "/dynqrcodes/{code}", tags: TAGS, summary: "Read a dynamic QR code" } })
    .input(z.object({ code: codeParam }))
    .output(dynamicRecord)
    .query(({ ctx, input }) => getDynamicCode(ctx.principal.library, input.code)),

  updateBatch: apiKeyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/dynqrcodes/batch",
        tags: TAGS,
        summary: "Change 1 to 50 dynamic QR codes, all or nothing",
        description:
          "Change 1 to 50 dynamic QR codes, each item as its PATCH /dynqrcodes/{code} would, in one transaction: one refused item (an unknown code included) changes nothing, and the answer lists every refused item by index. A writer's changes held back for review (published team codes) come back with their pending_change; one dynqrcode.updated event per code a change applied to.",
      },
    })
    .input(dynamicBatchPatchInput)
    .output(z.object({ updated: z.array(dynamicRecord) }))
    .mutation(({ ctx, input }) => updateDynamicCodes(ctx.principal, input)),

  update: apiKeyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/dynqrcodes/{code}",
        tags: TAGS,
        summary: "Change destination_url, name, status, style, the rules, metadata or external_id (null clears)",
        description:
          "Change destination_url, name, status, style, the rules, metadata or external_id (null clears a rule, metadata or external_id). On a published team code (one an admin made active), a writer's change to destination_url, targets, utm, expires_at, expired_url or password does not apply: it becomes the record's pending_change, which an admin approves or rejects on the Business page, and the answer is 202 (name, style and status paused or draft apply at once).",
      },
      acceptedWhenHeld: true,
      unmodifiedSince: true,
    })
    .input(dynamicPatchInput)
    .output(dynamicRecord)
    .mutation(async ({ ctx, input }) => {
      const { record, held } = await updateDynamicCode(ctx.principal, input, ctx.lastSeen);
      if (held) ctx.accept?.();
      return record;
    }),

  remove: apiKeyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/dynqrcodes/{code}",
        tags: TAGS,
        summary: "Delete a dynamic QR code (its scan history is kept)",
      },
    })
    .input(z.object({ code: codeParam }))
    .output(z.object({ code: z.string(), deleted: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteDynamicCode(ctx.principal, input.code)),
  deleteBatch: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/dynqrcodes/batch-delete",
        tags: TAGS,
        summary: "Delete 1 to 50 dynamic QR codes, all or nothing",
        description:
          "Deletes every code of `ids` (code values) or none: an id the library does not hold, or a published team code a writer's key may not delete, fails the batch, each such item listed by index in `errors` (the status is the first one's: 404 or 403). Each code deleted sends its own webhook event and activity entry, as a single DELETE does.",
      },
    })
    .input(batchDeleteInput)
    .output(z.object({ deleted: z.array(z.string()) }))
    .mutation(({ ctx, input }) => deleteDynamicCodes(ctx.principal, input.ids)),
});
