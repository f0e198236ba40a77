// A record's QR image: `/v1/qrcodes/{qr_id}/image`, `/v1/dynqrcodes/{code}/image` and the
// web library's images and downloads.
import { z } from "zod";
import { db } from "../platform/db";
import { invalid, notFound } from "../platform/errors";
import { shortUrl } from "../library/dynamicRecords";
import { libraryWhere, type Library } from "../library/library";
import { renderImage, type RenderJob } from "./renderer";
import { capacityProblem } from "./qrImage";
import { DEFAULT_SIZE, IMAGE_FORMATS, MAX_SIZE, MIN_SIZE, resolvedStyle, SIZE_MM, type ImageFormat } from "./qrStyle";
import type { ItemKind } from "../teams/teams";
import type { Style } from "../library/validation";
import { staticPayload, typedFieldsOfRow } from "../library/staticRecords";

/** What the image encodes: a static code's URL, a dynamic code's short URL (so scans are recorded), with the dynamic code's status. */
async function encodedText(
  library: Library,
  kind: ItemKind,
  id: string,
): Promise<{ text: string; style: Style; status?: string; field: PayloadField }> {
  if (kind === "static") {
    const row = await db.staticCode.findFirst({
      where: { id, ...libraryWhere(library) },
      select: { type: true, url: true, content: true, style: true },
    });
    if (!row) throw notFound("QR code not found");
    return {
      text: staticPayload(typedFieldsOfRow(row)),
      style: JSON.parse(row.style),
      field: row.type === "url" ? "url" : "content",
    };
  }
  const row = await db.dynamicCode.findFirst({
    where: { code: id, ...libraryWhere(library), deletedAt: null },
    select: { style: true, status: true, domain: true },
  });
  if (!row) throw notFound("Dynamic QR code not found");
  return { text: shortUrl(id, row.domain), style: JSON.parse(row.style), status: row.status, field: "short_url" };
}

/**
 * What an image's file name adds for a dynamic code whose short link answers 404 (a draft until
 * an admin approves it, a paused code until it is resumed), so that a file nobody should print
 * yet says so: `qr-<code>-draft-not-live.png`. A static code's image holds its URL and works as is.
 */
export const notLiveSuffix = (status: string | undefined) =>
  status === "draft" || status === "paused" ? `-${status}-not-live` : "";

const sizeProblem = `size must be an integer from ${MIN_SIZE} to ${MAX_SIZE}`;
const sizeMmProblem = `size_mm must be an integer from ${SIZE_MM.min} to ${SIZE_MM.max}`;

/**
 * The image routes' query (strings, as a query string gives them). `size` is in pixels
 * (PNG, SVG; a PDF has none and ignores it); `size_mm` is the PDF's width in millimetres and
 * is refused with another format (docs/IMAGES.md).
 */
export const imageQuery = z
  .object({
    format: z.enum(IMAGE_FORMATS, { error: "format must be svg, png or pdf" }).default("svg"),
    size: z
      .string()
      .regex(/^\d{1,4}$/, sizeProblem)
      .transform(Number)
      .pipe(z.number().min(MIN_SIZE, sizeProblem).max(MAX_SIZE, sizeProblem))
      .optional()
      .transform((size) => size ?? DEFAULT_SIZE),
    size_mm: z
      .string()
      .regex(/^\d{1,3}$/, sizeMmProblem)
      .transform(Number)
      .pipe(z.number().min(SIZE_MM.min, sizeMmProblem).max(SIZE_MM.max, sizeMmProblem))
      .optional(),
  })
  .superRefine((query, ctx) => {
    if (query.size_mm !== undefined && query.format !== "pdf")
      ctx.addIssue({ code: "custom", message: "size_mm is only for format=pdf (size is in pixels)" });
  })
  .transform(({ size_mm, ...query }) => ({ ...query, size_mm: size_mm ?? SIZE_MM.default }));
export type ImageQuery = z.infer<typeof imageQuery>;

export type QrImage = { bytes: string | Uint8Array; contentType: string; filename: string };

/** What the image pool draws for a record and an image query (the single image routes and the ZIP). */
export const renderJob = (text: string, style: Style, { format, size, size_mm }: ImageQuery): RenderJob => ({
  text,
  style,
  size,
  format,
  sizeMm: size_mm,
});

/** The field whose payload an image encodes: a static code's url or content, a dynamic code's short_url. */
export type PayloadField = "url" | "content" | "short_url";

/**
 * Why a stored record cannot be drawn (one stored before the capacity rule): "url is …",
 * "content is …" or "short_url is …", or null. Refused clearly by the image routes, listed by the ZIP.
 */
export function drawingProblem(field: PayloadField, text: string, style: Style): string | null {
  const problem = capacityProblem(text, resolvedStyle(style).error_correction);
  return problem && `${field} ${problem}`;
}

const CONTENT_TYPES: Record<ImageFormat, string> = { svg: "image/svg+xml", png: "image/png", pdf: "application/pdf" };

/**
 * The record's QR image, drawn with its style (off the event loop when the server runs the
 * image pool, and from the cache when drawn before). `key` is whose bound the drawing counts
 * against (an API key's id, or a user's): too many at once for one key is a 429.
 */
export async function qrImage(
  key: string,
  library: Library,
  kind: ItemKind,
  id: string,
  query: ImageQuery,
): Promise<QrImage> {
  const { text, style, status, field } = await encodedText(library, kind, id);
  // A clear refusal, never a 500.
  const problem = drawingProblem(field, text, style);
  if (problem) throw invalid(`This code's ${problem}: shorten it or lower style.error_correction`);
  return {
    bytes: await renderImage(key, renderJob(text, style, query)),
    contentType: CONTENT_TYPES[query.format],
    filename: `qr-${id.replace(/[^A-Za-z0-9_-]/g, "")}${notLiveSuffix(status)}.${query.format}`,
  };
}
