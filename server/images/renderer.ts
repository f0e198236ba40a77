// Where the QR images are drawn. A 2,048 px PNG takes most of a second of CPU: drawn on the
// main thread, four at once held up every other request (issue 24). The production server
// (server/http/server.ts) starts a pool of worker threads (server/images/pool.ts) and
// registers it here; without it (next dev, unit tests) images are drawn in process. Drawn
// images are kept in a small cache keyed by everything that decides them (format, size,
// encoded text, style), so a record's new version or style is a new key. Only PNGs go to the
// pool: their cost grows with the square of the size (a 2,048 px one is most of a second),
// while an SVG's does not grow with it (1 to 6 ms for a short text, the encoding of the matrix), so SVGs, the
// library's thumbnails among them, are drawn here at once rather than queued behind others'
// PNGs. One key may have at most IMAGES_PER_KEY PNGs drawing or waiting; beyond that it is
// answered 429 at once. PDFs go to the pool like PNGs; so does the decode check of a style
// (server/images/styleCheck.ts), which draws a PNG's pixels and decodes them.
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { DomainError } from "../platform/errors";
import { processSingleton } from "../platform/process-singleton";
import { renderPdf, renderPng, renderSvg } from "./qrImage";
import type { ImageFormat } from "./qrStyle";
import { unreadableReason } from "./styleCheck";
import type { Style } from "../library/validation";

/** `size` in pixels (PNG, SVG); `sizeMm` in millimetres (PDF, default SIZE_MM.default). */
export type RenderJob = { text: string; style: Style; size: number; format: ImageFormat; sizeMm?: number };
export type Rendered = string | Uint8Array;
type Render = (job: RenderJob) => Promise<Rendered>;
export type CheckJob = { text: string; style: Style };
type Check = (job: CheckJob) => Promise<string | null>;

/** PNGs one key (API key, or user for the pages) may have drawing or waiting at once. */
export const IMAGES_PER_KEY = 2;
/** The cache's bound, in bytes. */
const CACHE_BYTES = 32 * 2 ** 20;

/** Draws in this thread: the fallback, and what the pool's threads run. */
export const renderHere: Render = async ({ text, style, size, format, sizeMm }) => {
  if (format === "svg") return renderSvg(text, style, size);
  return new Uint8Array(format === "pdf" ? await renderPdf(text, style, sizeMm) : await renderPng(text, style, size));
};

/** The decode check in this thread: the fallback, and what the pool's threads run. */
export const checkHere: Check = ({ text, style }) => unreadableReason(text, style);

const state = processSingleton("images.renderer", () => ({
  render: renderHere,
  check: checkHere,
  pooled: false,
  /** Images actually drawn (not served from the cache), for tests. */
  drawn: 0,
  inFlight: new Map<string, number>(),
  cache: new LRUCache<string, Rendered>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (image) => Math.max(1, typeof image === "string" ? image.length * 2 : image.byteLength),
  }),
}));

/** Called by the pool once it is started (and with null if it stops for good). */
export function setImageRenderer(pool: { render: Render; check: Check } | null): void {
  state.render = pool?.render ?? renderHere;
  state.check = pool?.check ?? checkHere;
  state.pooled = pool !== null;
}

/** Why `text` drawn with `style` would not scan, or null: decoded off the event loop when pooled. */
export const checkStyle = (job: CheckJob): Promise<string | null> => state.check(job);

export const imageRenderStats = () => ({ drawn: state.drawn, pooled: state.pooled, cached: state.cache.size });

const cacheKey = ({ text, style, size, format, sizeMm }: RenderJob) =>
  createHash("sha256")
    .update(JSON.stringify([format, format === "pdf" ? sizeMm : size, text, style]))
    .digest("base64url");

const tooMany = () =>
  new DomainError("rate_limited", "Too many images at once for this key: try again in a moment", undefined, {
    "Retry-After": "1",
  });

/**
 * SVGs of texts up to this many bytes are drawn here (a few ms); longer ones go to the pool like
 * PNGs: the encoder's segmentation of a 2 KB URL takes up to a second (issue 37).
 */
const SVG_HERE_BYTES = 256;

/** The image for `job`, from the cache or drawn (a PNG, or a long text's SVG, counted against `key`'s bound). */
export async function renderImage(key: string, job: RenderJob): Promise<Rendered> {
  const id = cacheKey(job);
  const cached = state.cache.get(id);
  if (cached !== undefined) return cached;
  if (job.format === "svg" && Buffer.byteLength(job.text) <= SVG_HERE_BYTES) {
    const image = await renderHere(job);
    state.drawn++;
    state.cache.set(id, image);
    return image;
  }
  const busy = state.inFlight.get(key) ?? 0;
  if (busy >= IMAGES_PER_KEY) throw tooMany();
  state.inFlight.set(key, busy + 1);
  try {
    const image = await state.render(job);
    state.drawn++;
    state.cache.set(id, image);
    return image;
  } finally {
    const left = (state.inFlight.get(key) ?? 1) - 1;
    if (left > 0) state.inFlight.set(key, left);
    else state.inFlight.delete(key);
  }
}
