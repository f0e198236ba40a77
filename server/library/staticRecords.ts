// A static code's shapes: what a create and a batch take, and the record /v1 answers with (the
// webhooks' payloads carry the same). Apart from the use cases (staticCodes.ts).
import { z } from "zod";
import { sendableUrl } from "../platform/urls";
import { capacityProblem } from "../images/qrImage";
import { resolvedStyle } from "../images/qrStyle";
import { extrasInput, extrasPatch, extrasRecord, extrasRecordOf, type ExtrasColumns } from "./recordExtras";
import { batchArray, bodyObject, nameField, styleField, toSeconds, urlField } from "./validation";
import { CODE_TYPES, type AnyContent, type CodeType } from "../codeTypes/content";
import { contentField, typedFieldIssues, typedPayload, typeField, type TypedFields } from "../codeTypes/typedFields";
import type { Style } from "./validation";
import { contentSummary } from "../codeTypes/summary";
import { stylePresetField } from "../stylePresets/presetFields";

/** What a code's image holds: its URL or its content's encoding (docs/TYPES.md). */
export const staticPayload = (fields: TypedFields): string => typedPayload(fields, sendableUrl);

/** A stored row's type, url and content. */
export const typedFieldsOfRow = (row: { type: string; url: string | null; content: string | null }): TypedFields => ({
  type: row.type as CodeType,
  url: row.url,
  content: row.content === null ? null : (JSON.parse(row.content) as AnyContent),
});

/** What the pages show where a URL goes: the URL, or a line that says what the content is. */
export const staticShownText = (fields: TypedFields): string =>
  fields.type === "url" ? sendableUrl(fields.url!) : contentSummary(fields.type, fields.content as never);

/** Why the code's payload does not fit a QR code at its style's level ("url …" or "content …"), or null. */
export function payloadCapacityProblem(fields: TypedFields, style: Style): string | null {
  const problem = capacityProblem(staticPayload(fields), resolvedStyle(style).error_correction);
  return problem && `${fields.type === "url" ? "url" : "content"} ${problem}`;
}

/** The issues of a record's type, url and content, then whether its payload fits (at `ctx`'s place). */
export function refineTyped(
  item: { type?: CodeType; url?: string | null; content?: unknown; style?: Style },
  ctx: z.RefinementCtx,
) {
  const type = item.type ?? "url";
  const issues = typedFieldIssues(type, item.url, item.content);
  for (const issue of issues) ctx.addIssue({ code: "custom", ...issue });
  if (issues.length > 0) return;
  const fields = { type, url: item.url ?? null, content: (item.content ?? null) as AnyContent | null };
  // The image encodes the payload itself: refuse one that no QR code at the style's level can hold.
  const problem = payloadCapacityProblem(fields, item.style ?? {});
  if (problem) ctx.addIssue({ code: "custom", path: [type === "url" ? "url" : "content"], message: problem });
}

export const staticCodeInput = bodyObject({
  type: typeField.optional(),
  url: urlField("url").nullable().optional(),
  content: contentField.optional(),
  name: nameField,
  style: styleField.optional(),
  style_preset: stylePresetField.optional(),
  ...extrasInput,
})
  .superRefine(refineTyped)
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
  type: typeField.optional(),
  url: urlField("url").nullable().optional(),
  content: contentField.optional(),
  name: nameField.optional(),
  style: styleField.optional(),
  style_preset: stylePresetField.optional(),
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
    type: z.enum(CODE_TYPES),
    url: z.string().nullable().meta({ description: "The address of a `url` code; null for every other type." }),
    content: contentField,
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
  type: string;
  url: string | null;
  content: string | null;
  name: string;
  style: string;
  createdAt: Date | number;
  updatedAt: Date | number;
} & Partial<ExtrasColumns>;
/** A stored row as the API shows it. */
export const staticRecordOf = (row: Row): StaticRecord => ({
  qr_id: row.id,
  type: row.type as CodeType,
  url: row.url === null ? null : sendableUrl(row.url),
  content: row.content ? JSON.parse(row.content) : null,
  name: row.name,
  style: JSON.parse(row.style),
  created_at: toSeconds(row.createdAt),
  updated_at: toSeconds(row.updatedAt),
  ...extrasRecordOf(row),
});
