// A record's QR image: `/v1/qrcodes/{qr_id}/image`, `/v1/dynqrcodes/{code}/image` and the
// web library's images and downloads.
import { z } from "zod";
import { db } from "../db";
import { invalid, notFound } from "../errors";
import { shortUrl } from "./dynamicCodes";
import { libraryWhere, type Library } from "./library";
import { renderImage } from "../images/renderer";
import { capacityProblem, DEFAULT_SIZE, IMAGE_FORMATS, MAX_SIZE, MIN_SIZE } from "./qrImage";
import type { ItemKind } from "./teams";
import type { Style } from "./validation";

/** What the image encodes: a static code's URL, a dynamic code's short URL (so scans are recorded). */
async function encodedText(library: Library, kind: ItemKind, id: string): Promise<{ text: string; style: Style }> {
  if (kind === "static") {
    const row = await db.staticCode.findFirst({ where: { id, ...libraryWhere(library) }, select: { url: true, style: true } });
    if (!row) throw notFound("QR code not found");
    return { text: row.url, style: JSON.parse(row.style) };
  }
  const row = await db.dynamicCode.findFirst({ where: { code: id, ...libraryWhere(library), deletedAt: null }, select: { style: true } });
  if (!row) throw notFound("Dynamic QR code not found");
  return { text: shortUrl(id), style: JSON.parse(row.style) };
}

const sizeProblem = `size must be an integer from ${MIN_SIZE} to ${MAX_SIZE}`;

/** The image routes' query (strings, as a query string gives them). */
export const imageQuery = z.object({
  format: z.enum(IMAGE_FORMATS, { error: "format must be svg or png" }).default("svg"),
  size: z
    .string()
    .regex(/^\d{1,4}$/, sizeProblem)
    .transform(Number)
    .pipe(z.number().min(MIN_SIZE, sizeProblem).max(MAX_SIZE, sizeProblem))
    .optional()
    .transform((size) => size ?? DEFAULT_SIZE),
});
export type ImageQuery = z.infer<typeof imageQuery>;

export type QrImage = { bytes: string | Uint8Array; contentType: string; filename: string };

/**
 * The record's QR image, drawn with its style (off the event loop when the server runs the
 * image pool, and from the cache when drawn before). `key` is whose bound the drawing counts
 * against (an API key's id, or a user's): too many at once for one key is a 429.
 */
export async function qrImage(key: string, library: Library, kind: ItemKind, id: string, { format, size }: ImageQuery): Promise<QrImage> {
  const { text, style } = await encodedText(library, kind, id);
  // A record stored before the capacity rule: a clear refusal, never a 500.
  const problem = capacityProblem(text, style.error_correction);
  if (problem) throw invalid(`This code's ${kind === "static" ? "url" : "short_url"} ${problem}: shorten it or lower style.error_correction`);
  return {
    bytes: await renderImage(key, { text, style, size, format }),
    contentType: format === "svg" ? "image/svg+xml" : "image/png",
    filename: `qr-${id.replace(/[^A-Za-z0-9_-]/g, "")}.${format}`,
  };
}
