// A static code's shapes: what a create and a batch take, and the record /v1 answers with (the
// webhooks' payloads carry the same). Apart from the use cases (staticCodes.ts).
import { z } from "zod";
import { sendableUrl } from "../platform/urls";
import { capacityProblem } from "../images/qrImage";
import { resolvedStyle } from "../images/qrStyle";
import { batchArray, bodyObject, nameField, styleField, toSeconds, urlField } from "./validation";

export const staticCodeInput = bodyObject({
  url: urlField("url"),
  name: nameField,
  style: styleField.optional(),
}).superRefine((item, ctx) => {
  // The image encodes the URL itself: refuse one that no QR code at the style's level can hold.
  const problem = capacityProblem(item.url, resolvedStyle(item.style ?? {}).error_correction);
  if (problem) ctx.addIssue({ code: "custom", path: ["url"], message: `url ${problem}` });
});
export const staticBatchInput = bodyObject({ qrcodes: batchArray("qrcodes", staticCodeInput) });
export type StaticCodeInput = z.infer<typeof staticCodeInput>;

export const staticRecord = z
  .object({
    qr_id: z.string(),
    url: z.string(),
    name: z.string(),
    style: styleField,
    created_at: z.number().int().meta({ description: "Seconds since the epoch.", example: 1795392000 }),
    updated_at: z.number().int().meta({ description: "Seconds since the epoch.", example: 1795392000 }),
  })
  .meta({ id: "StaticQrCode" });
export type StaticRecord = z.infer<typeof staticRecord>;

type Row = { id: string; url: string; name: string; style: string; createdAt: Date | number; updatedAt: Date | number };
/** A stored row as the API shows it. */
export const staticRecordOf = (row: Row): StaticRecord => ({
  qr_id: row.id,
  url: sendableUrl(row.url),
  name: row.name,
  style: JSON.parse(row.style),
  created_at: toSeconds(row.createdAt),
  updated_at: toSeconds(row.updatedAt),
});
