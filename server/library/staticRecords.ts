// A static code's shapes: what a create and a batch take, and the record /v1 answers with (the
// webhooks' payloads carry the same). Apart from the use cases (staticCodes.ts).
import { z } from "zod";
import { sendableUrl } from "../platform/urls";
import { capacityProblem } from "../images/qrImage";
import { resolvedStyle } from "../images/qrStyle";
import { extrasInput, extrasPatch, extrasRecord, extrasRecordOf, type ExtrasColumns } from "./recordExtras";
import { batchArray, bodyObject, nameField, styleField, toSeconds, urlField } from "./validation";

export const staticCodeInput = bodyObject({
  url: urlField("url"),
  name: nameField,
  style: styleField.optional(),
  ...extrasInput,
})
  .superRefine((item, ctx) => {
    // The image encodes the URL itself: refuse one that no QR code at the style's level can hold.
    const problem = capacityProblem(item.url, resolvedStyle(item.style ?? {}).error_correction);
    if (problem) ctx.addIssue({ code: "custom", path: ["url"], message: `url ${problem}` });
  })
  // The example a form builds the body from (Swagger UI's Try it out): without the unique
  // external_id, so that Execute twice creates two codes.
  .meta({ example: { url: "https://example.com/menu", name: "Lunch menu" } });
export const staticBatchInput = bodyObject({ qrcodes: batchArray("qrcodes", staticCodeInput) });
export type StaticCodeInput = z.infer<typeof staticCodeInput>;

export const qrIdParam = z
  .string()
  .meta({ description: "The code's qr_id, as its create answered.", maxLength: 64, pattern: "^[A-Za-z0-9_-]+$" });
/** What a PATCH changes (a batch PATCH's items too). */
export const staticPatchFields = {
  url: urlField("url").optional(),
  name: nameField.optional(),
  style: styleField.optional(),
  ...extrasPatch,
};
export const staticPatchInput = bodyObject({ qr_id: qrIdParam, ...staticPatchFields }).meta({
  example: { name: "Lunch menu (winter)", metadata: { order: "4711" } },
  minProperties: 1,
});
export type StaticPatchInput = z.infer<typeof staticPatchInput>;

export const staticRecord = z
  .object({
    qr_id: z.string(),
    url: z.string(),
    name: z.string(),
    style: styleField,
    created_at: z.number().int().meta({ description: "Seconds since the epoch.", example: 1795392000 }),
    updated_at: z.number().int().meta({ description: "Seconds since the epoch.", example: 1795392000 }),
    ...extrasRecord,
  })
  .meta({ id: "StaticQrCode" });
export type StaticRecord = z.infer<typeof staticRecord>;

type Row = {
  id: string;
  url: string;
  name: string;
  style: string;
  createdAt: Date | number;
  updatedAt: Date | number;
} & Partial<ExtrasColumns>;
/** A stored row as the API shows it. */
export const staticRecordOf = (row: Row): StaticRecord => ({
  qr_id: row.id,
  url: sendableUrl(row.url),
  name: row.name,
  style: JSON.parse(row.style),
  created_at: toSeconds(row.createdAt),
  updated_at: toSeconds(row.updatedAt),
  ...extrasRecordOf(row),
});
