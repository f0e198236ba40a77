// A record's QR image as an HTTP response: `/v1/qrcodes/{qr_id}/image`,
// `/v1/dynqrcodes/{code}/image` and the web library's images and downloads.
import { db } from "../db";
import { invalid, notFound } from "../errors";
import { shortUrl } from "./dynamicCodes";
import { libraryWhere, type Library } from "./library";
import { DEFAULT_SIZE, IMAGE_FORMATS, MAX_SIZE, MIN_SIZE, renderPng, renderSvg, type ImageFormat } from "./qrImage";
import type { ItemKind } from "./teams";
import type { Style } from "./validation";

function imageQuery(query: URLSearchParams): { format: ImageFormat; size: number } {
  const format = query.get("format") ?? "svg";
  if (!(IMAGE_FORMATS as readonly string[]).includes(format)) throw invalid("format must be svg or png");
  const sizeText = query.get("size");
  const size = sizeText === null ? DEFAULT_SIZE : /^\d{1,4}$/.test(sizeText) ? Number(sizeText) : NaN;
  if (!(size >= MIN_SIZE && size <= MAX_SIZE)) throw invalid(`size must be an integer from ${MIN_SIZE} to ${MAX_SIZE}`);
  return { format: format as ImageFormat, size };
}

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

/** `download` asks the browser to save the file rather than show it. */
export async function qrImageResponse(library: Library, kind: ItemKind, id: string, query: URLSearchParams, download = false): Promise<Response> {
  const { format, size } = imageQuery(query);
  const { text, style } = await encodedText(library, kind, id);
  const body = format === "svg" ? await renderSvg(text, style, size) : new Uint8Array(await renderPng(text, style, size));
  const filename = `qr-${id.replace(/[^A-Za-z0-9_-]/g, "")}.${format}`;
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": format === "svg" ? "image/svg+xml" : "image/png",
      "Content-Disposition": `${download ? "attachment" : "inline"}; filename="${filename}"`,
      // The style and destination can change: always ask again.
      "Cache-Control": "private, no-cache",
    },
  });
}
