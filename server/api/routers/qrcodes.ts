// /v1/qrcodes: static QR codes (their routes: the meta of each procedure). The /v1 route
// table (server/api/routes.ts) lets a literal segment such as `batch` win over `{qr_id}`,
// whatever the order of declaration.
import { z } from "zod";
import { createStaticCodes, deleteStaticCode, getStaticCode, listStaticCodes } from "../../library/staticCodes";
import {
  qrIdParam,
  staticBatchInput,
  staticCodeInput,
  staticPatchInput,
  staticRecord,
} from "../../library/staticRecords";
import { updateStaticCode } from "../../library/staticUpdate";
import { staticBatchPatchInput, updateStaticCodes } from "../../library/batchUpdate";
import { staticListQuery } from "../../library/listFilters";
import { batchDeleteInput, deleteStaticCodes } from "../../library/batchDelete";
import { apiKeyProcedure, createTRPCRouter } from "../trpc";

const created = z.object({ created: z.array(staticRecord) });
const TAGS = ["Static QR codes"];

export const qrcodesRouter = createTRPCRouter({
  list: apiKeyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/qrcodes",
        tags: TAGS,
        summary: "List static QR codes: newest first, or filtered and sorted",
      },
      cachedByLibraryVersion: true,
    })
    .input(staticListQuery)
    .output(z.object({ qrcodes: z.array(staticRecord), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => listStaticCodes(ctx.principal.library, input)),

  createBatch: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/qrcodes/batch",
        tags: TAGS,
        summary: "Create 1 to 50 static QR codes, all or nothing",
        successDescription: "Created",
      },
      created: true,
    })
    .input(staticBatchInput)
    .output(created)
    .mutation(async ({ ctx, input }) => ({ created: await createStaticCodes(ctx.principal, input.qrcodes, true) })),

  create: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/qrcodes",
        tags: TAGS,
        summary: "Create a static QR code",
        successDescription: "Created",
      },
      created: true,
    })
    .input(staticCodeInput)
    .output(created)
    .mutation(async ({ ctx, input }) => ({ created: await createStaticCodes(ctx.principal, [input]) })),

  get: apiKeyProcedure
    .meta({ openapi: { method: "GET", path: "/qrcodes/{qr_id}", tags: TAGS, summary: "Read a static QR code" } })
    .input(z.object({ qr_id: qrIdParam }))
    .output(staticRecord)
    .query(({ ctx, input }) => getStaticCode(ctx.principal.library, input.qr_id)),

  update: apiKeyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/qrcodes/{qr_id}",
        tags: TAGS,
        summary: "Change url, name, style, metadata or external_id (null clears metadata or external_id)",
      },
      unmodifiedSince: true,
    })
    .input(staticPatchInput)
    .output(staticRecord)
    .mutation(({ ctx, input }) => updateStaticCode(ctx.principal, input, ctx.lastSeen)),

  updateBatch: apiKeyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/qrcodes/batch",
        tags: TAGS,
        summary: "Change 1 to 50 static QR codes, all or nothing",
        description:
          "Change 1 to 50 static QR codes, each item as its PATCH /qrcodes/{qr_id} would, in one transaction: one refused item (an unknown qr_id included) changes nothing, and the answer lists every refused item by index.",
      },
    })
    .input(staticBatchPatchInput)
    .output(z.object({ updated: z.array(staticRecord) }))
    .mutation(({ ctx, input }) => updateStaticCodes(ctx.principal, input)),

  remove: apiKeyProcedure
    .meta({ openapi: { method: "DELETE", path: "/qrcodes/{qr_id}", tags: TAGS, summary: "Delete a static QR code" } })
    .input(z.object({ qr_id: qrIdParam }))
    .output(z.object({ qr_id: z.string(), deleted: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteStaticCode(ctx.principal, input.qr_id)),
  deleteBatch: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/qrcodes/batch-delete",
        tags: TAGS,
        summary: "Delete 1 to 50 static QR codes, all or nothing",
        description:
          "Deletes every code of `ids` (qr_id values) or none: an id the library does not hold, or a published team code a writer's key may not delete, fails the batch, each such item listed by index in `errors` (the status is the first one's: 404 or 403). Each code deleted sends its own webhook event and activity entry, as a single DELETE does.",
      },
    })
    .input(batchDeleteInput)
    .output(z.object({ deleted: z.array(z.string()) }))
    .mutation(({ ctx, input }) => deleteStaticCodes(ctx.principal, input.ids)),
});
