// QR images of records: the matrix from the `qrcode` library, drawn by us with the record's
// style (module and finder shapes, colours, logo, frame) as one scene in module units that
// three outputs draw alike: SVG (written here), PNG (rasterised by Skia through
// @napi-rs/canvas) and vector PDF (pdfkit). The same functions serve the /v1 image routes,
// the web library's images, downloads and the style editor's preview, and the decode check
// (server/images/styleCheck.ts). Node only: the browser gets the rules from ./qrStyle.
import { createHash } from "node:crypto";
import { createCanvas, loadImage, Path2D, type SKRSContext2D } from "@napi-rs/canvas";
import { LRUCache } from "lru-cache";
import PDFDocument from "pdfkit";
import { processSingleton } from "../platform/process-singleton";
import QRCode from "qrcode";
import { captionPath, FEATURES, layoutCaption, type CaptionLayout, type Face } from "./frameText";
import { parseLogo } from "./logo";
import { contrastRatio, DEFAULT_SIZE, DEFAULT_STYLE, resolvedStyle, SIZE_MM, type ResolvedStyle } from "./qrStyle";
import type { Style } from "../library/validation";

/** What a version-40 code holds in byte mode (UTF-8) at each error-correction level. */
export const MAX_BYTES = { L: 2953, M: 2331, Q: 1663, H: 1273 } as const;
export type ErrorCorrection = keyof typeof MAX_BYTES;

/**
 * Why `text` cannot be drawn as a QR code at `level`, or null. Judged in byte mode (UTF-8), as
 * the message says: a length test, never the encoder (whose cost grows with the text: 0.1 s for
 * 2 KB, seconds for a megabyte, on the event loop). The encoder's mixed modes never need more
 * room than byte mode, so whatever passes draws.
 */
export function capacityProblem(text: string, level: ErrorCorrection = DEFAULT_STYLE.error_correction): string | null {
  return text.length > MAX_BYTES[level] || Buffer.byteLength(text) > MAX_BYTES[level] ? capacityRefusal(level) : null;
}
const capacityRefusal = (level: ErrorCorrection) =>
  `is too long for a QR code at error correction ${level}: at most ${MAX_BYTES[level]} bytes (UTF-8)`;

/** A filled (rounded) rectangle in module units; a circle when r is half its side. */
type Box = { x: number; y: number; w: number; h: number; r: number; color: string };
type Scene = {
  width: number;
  height: number;
  boxes: Box[];
  logo: { x: number; y: number; side: number; png: Buffer } | null;
  /** The frame's text, `fontSize` modules a em, from `left` along the `baseline`; `outline` its glyphs as SVG path data. */
  caption: {
    layout: CaptionLayout;
    left: number;
    baseline: number;
    fontSize: number;
    color: string;
    outline: string;
  } | null;
};

/** The frame's border and the band under the code that holds its text, in modules. */
const FRAME_BORDER = 1;
const FRAME_BAND = 4;
/** Corner radii of a finder's three squares (7, 5 and 3 modules) by shape. */
const FINDER_RADII = { square: [0, 0, 0], rounded: [2, 1.4, 0.8], dot: [3.5, 2.5, 1.5] } as const;
const MODULE_RADIUS = { square: 0, rounded: 0.3, dot: 0.5 } as const;
/** The logo is drawn inside its cleared square, this share of the side away from its edges. */
const LOGO_PADDING = 0.08;
/** The height above the baseline, in em, of the middle of a capital (Noto Sans: 0.714 em high) and of an ideograph. */
const CAPTION_MIDDLE = 0.36;

/** Centres of the alignment patterns of a version (ISO/IEC 18004 table E.1, as `qrcode` places them). */
function alignmentCentres(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = version * 4 + 17;
  const step = size === 145 ? 26 : Math.ceil((size - 13) / (2 * count - 2)) * 2;
  const positions = [size - 7];
  for (let i = 1; i < count - 1; i++) positions.push(positions[i - 1] - step);
  positions.push(6);
  return positions.reverse();
}

// A rasterised logo per data URL: every image of a record draws the same one.
const logos = processSingleton("images.logos", () => new LRUCache<string, Buffer>({ max: 64 }));
const LOGO_PIXELS = 512;

/** The logo as a square PNG (aspect kept, transparent around): SVGs are never embedded as sent. */
async function rasterisedLogo(dataUrl: string): Promise<Buffer> {
  const key = createHash("sha256").update(dataUrl).digest("base64url");
  const cached = logos.get(key);
  if (cached) return cached;
  const logo = parseLogo(dataUrl);
  if (!logo) throw new Error("not a logo data URL");
  const image = await loadImage(logo.bytes);
  if (!image.width || !image.height) throw new Error("the logo has no size");
  const canvas = createCanvas(LOGO_PIXELS, LOGO_PIXELS);
  const scale = LOGO_PIXELS / Math.max(image.width, image.height);
  const [w, h] = [image.width * scale, image.height * scale];
  canvas.getContext("2d").drawImage(image, (LOGO_PIXELS - w) / 2, (LOGO_PIXELS - h) / 2, w, h);
  const png = await canvas.encode("png");
  logos.set(key, png);
  return png;
}

/** Everything the outputs draw, in module units. */
async function sceneOf(text: string, style: Style): Promise<Scene> {
  const s: ResolvedStyle = resolvedStyle(style);
  const qr = QRCode.create(text, { errorCorrectionLevel: s.error_correction });
  const n = qr.modules.size;
  const frame = s.frame ? FRAME_BORDER : 0;
  const side = n + 2 * s.margin;
  const width = side + 2 * frame;
  const height = s.frame ? frame + side + FRAME_BAND : width;
  const origin = frame + s.margin;
  const boxes: Box[] = [];
  if (s.frame) boxes.push({ x: 0, y: 0, w: width, h: height, r: 1, color: s.frame.color });
  boxes.push({ x: frame, y: frame, w: side, h: side, r: 0, color: s.background });

  const inFinder = (row: number, col: number) =>
    (row < 7 && col < 7) || (row < 7 && col >= n - 7) || (row >= n - 7 && col < 7);
  const centres = alignmentCentres(qr.version);
  // Alignment patterns stay square whatever the module shape: decoders miss dotted ones.
  const inAlignment = (row: number, col: number) =>
    centres.some((cr) => Math.abs(row - cr) <= 2 && centres.some((cc) => Math.abs(col - cc) <= 2 && !inFinder(cr, cc)));
  // The logo's square (padded), centred: the modules whose centre it covers are left out.
  const logoSide = s.logo ? n * Math.sqrt(s.logo_size / 100) : 0;
  const logoStart = (n - logoSide) / 2;
  const underLogo = (row: number, col: number) =>
    logoSide > 0 && [row, col].every((at) => at + 0.5 > logoStart && at + 0.5 < logoStart + logoSide);

  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (!qr.modules.get(row, col) || inFinder(row, col) || underLogo(row, col)) continue;
      const r = inAlignment(row, col) ? 0 : MODULE_RADIUS[s.module_shape];
      boxes.push({ x: origin + col, y: origin + row, w: 1, h: 1, r, color: s.foreground });
    }
  }
  const [outer, middle, inner] = FINDER_RADII[s.finder_shape];
  for (const [row, col] of [
    [0, 0],
    [0, n - 7],
    [n - 7, 0],
  ]) {
    const [x, y] = [origin + col, origin + row];
    boxes.push({ x, y, w: 7, h: 7, r: outer, color: s.finder_color });
    boxes.push({ x: x + 1, y: y + 1, w: 5, h: 5, r: middle, color: s.background });
    boxes.push({ x: x + 2, y: y + 2, w: 3, h: 3, r: inner, color: s.finder_color });
  }
  const padding = logoSide * LOGO_PADDING;
  const logo = s.logo
    ? {
        x: origin + logoStart + padding,
        y: origin + logoStart + padding,
        side: logoSide - 2 * padding,
        png: await rasterisedLogo(s.logo),
      }
    : null;
  let caption: Scene["caption"] = null;
  if (s.frame) {
    // As large as the band allows (half its height), narrower if the text needs it.
    const layout = layoutCaption(s.frame.text);
    const fontSize = Math.min(FRAME_BAND * 0.5, (width - 2) / Math.max(layout.width, 1e-6));
    // The code's own colour that stands out more on the frame's.
    const color =
      contrastRatio(s.background, s.frame.color) >= contrastRatio(s.foreground, s.frame.color)
        ? s.background
        : s.foreground;
    // Centred; the baseline so that a capital (or an ideograph's middle) sits in the band's middle.
    const [left, baseline] = [
      (width - layout.width * fontSize) / 2,
      frame + side + FRAME_BAND / 2 + CAPTION_MIDDLE * fontSize,
    ];
    caption = { layout, left, baseline, fontSize, color, outline: captionPath(layout, left, baseline, fontSize) };
  }
  return { width, height, boxes, logo, caption };
}

/** A code with more modules than pixels (a very long URL at 64) is drawn at one pixel a module instead. */
const widthFor = (scene: Scene, size: number) => Math.max(size, Math.ceil(scene.width));
const heightFor = (scene: Scene, width: number) => Math.round((width * scene.height) / scene.width);
/** Consecutive boxes of one colour, filled as one path (no seams between neighbours). */
function runs(boxes: Box[]): Box[][] {
  const out: Box[][] = [];
  for (const box of boxes) {
    const last = out.at(-1);
    if (last && last[0].color === box.color) last.push(box);
    else out.push([box]);
  }
  return out;
}

const num = (value: number) => String(Math.round(value * 1000) / 1000);
function svgPath({ x, y, w, h, r }: Box): string {
  if (r === 0) return `M${num(x)} ${num(y)}h${num(w)}v${num(h)}h${num(-w)}z`;
  const a = (dx: number, dy: number) => `a${num(r)} ${num(r)} 0 0 1 ${num(dx)} ${num(dy)}`;
  return `M${num(x + r)} ${num(y)}h${num(w - 2 * r)}${a(r, r)}v${num(h - 2 * r)}${a(-r, r)}h${num(-(w - 2 * r))}${a(-r, -r)}v${num(-(h - 2 * r))}${a(r, -r)}z`;
}

export async function renderSvg(text: string, style: Style, size = DEFAULT_SIZE): Promise<string> {
  const scene = await sceneOf(text, style);
  const width = widthFor(scene, size);
  const parts = runs(scene.boxes).map((run) => `<path fill="${run[0].color}" d="${run.map(svgPath).join("")}"/>`);
  if (scene.logo) {
    const { x, y, side, png } = scene.logo;
    parts.push(
      `<image x="${num(x)}" y="${num(y)}" width="${num(side)}" height="${num(side)}" href="data:image/png;base64,${png.toString("base64")}"/>`,
    );
  }
  if (scene.caption) parts.push(`<path fill="${scene.caption.color}" d="${scene.caption.outline}"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${heightFor(scene, width)}" viewBox="0 0 ${scene.width} ${scene.height}">${parts.join("")}</svg>\n`;
}

/** Draws the scene on a canvas `size` pixels wide (or as wide as `size` says for the scene's width in modules). */
async function drawCanvas(text: string, style: Style, sizeFor: number | ((modules: number) => number)) {
  const scene = await sceneOf(text, style);
  const size = widthFor(scene, typeof sizeFor === "number" ? sizeFor : sizeFor(scene.width));
  const canvas = createCanvas(size, heightFor(scene, size));
  const ctx: SKRSContext2D = canvas.getContext("2d");
  ctx.scale(size / scene.width, size / scene.width);
  for (const run of runs(scene.boxes)) {
    ctx.beginPath();
    for (const { x, y, w, h, r } of run) {
      if (r === 0) ctx.rect(x, y, w, h);
      else ctx.roundRect(x, y, w, h, r);
    }
    ctx.fillStyle = run[0].color;
    ctx.fill();
  }
  if (scene.logo) {
    const { x, y, side, png } = scene.logo;
    ctx.drawImage(await loadImage(png), x, y, side, side);
  }
  if (scene.caption) {
    ctx.fillStyle = scene.caption.color;
    ctx.fill(new Path2D(scene.caption.outline));
  }
  return canvas;
}

/** Node only (Skia). */
export async function renderPng(text: string, style: Style, size = DEFAULT_SIZE): Promise<Buffer> {
  return (await drawCanvas(text, style, size)).encode("png");
}

/**
 * The image's RGBA pixels, for the decode check (no PNG encoding in between): `size` pixels
 * wide, or wider for a dense code, so that a module has at least `modulePixels` pixels.
 */
export async function renderPixels(
  text: string,
  style: Style,
  size: number,
  modulePixels = 0,
): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const canvas = await drawCanvas(text, style, (width) => Math.max(size, Math.ceil(width * modulePixels)));
  const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
  return { data: new Uint8ClampedArray(pixels.data), width: canvas.width, height: canvas.height };
}

const POINTS_PER_MM = 72 / 25.4;

/**
 * pdfkit opens a font anew for each document, and a new fontkit font parses its layout
 * tables at its first text (Noto Sans's kerning: 20 to 40 ms on an idle core, 400 under load).
 * The document's font is given the thread's own, parsed once; its subset stays the
 * document's. (pdfkit 0.20's EmbeddedFont: `font` and `subset`. Left alone if that changes.)
 */
function sharedFace(doc: PDFKit.PDFDocument, face: Face): void {
  const embedded = (doc as unknown as { _font?: { font?: { postscriptName?: string }; subset?: unknown } })._font;
  if (embedded?.font?.postscriptName !== face.font.postscriptName || !embedded.subset || embedded.font === face.font)
    return;
  embedded.font = face.font;
  embedded.subset = face.font.createSubset();
}

/** A one-page vector PDF, `sizeMm` millimetres wide. */
export async function renderPdf(text: string, style: Style, sizeMm: number = SIZE_MM.default): Promise<Buffer> {
  const scene = await sceneOf(text, style);
  const width = sizeMm * POINTS_PER_MM;
  const doc = new PDFDocument({
    size: [width, (width * scene.height) / scene.width],
    margin: 0,
    info: { Title: "QR code", Producer: "qr-records" },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const unit = width / scene.width;
  doc.scale(unit);
  for (const run of runs(scene.boxes)) {
    for (const { x, y, w, h, r } of run) {
      if (r === 0) doc.rect(x, y, w, h);
      else doc.roundedRect(x, y, w, h, r);
    }
    doc.fill(run[0].color);
  }
  if (scene.logo) {
    const { x, y, side, png } = scene.logo;
    doc.image(png, x, y, { width: side, height: side });
  }
  if (scene.caption) {
    // Each run as text in its own font (embedded, subset: it prints as drawn and copies as
    // written), shaped by the same fontkit with the same features where the others drew it.
    const { layout, left, baseline, fontSize, color } = scene.caption;
    doc.fillColor(color);
    for (const run of layout.runs) {
      const name = run.face.font.postscriptName;
      doc.registerFont(name, run.face.bytes);
      doc.font(name).fontSize(fontSize);
      sharedFace(doc, run.face);
      doc.text(run.text, left + run.x * fontSize, baseline, {
        lineBreak: false,
        baseline: "alphabetic",
        features: FEATURES as PDFKit.Mixins.OpenTypeFeatures[],
      });
    }
  }
  doc.end();
  return ended;
}
