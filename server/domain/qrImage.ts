// QR images of records, drawn by the `qrcode` library with the record's style. The same
// functions serve the /v1 image routes, the web library's images and downloads, and the
// style editor's live preview (the SVG part runs in the browser too).
import QRCode from "qrcode";
import type { Style } from "./validation";

export const IMAGE_FORMATS = ["svg", "png"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export const MIN_SIZE = 64;
export const MAX_SIZE = 2048;
export const DEFAULT_SIZE = 512;

/** What a style leaves unsaid: black on white, error correction M, the standard 4-module quiet zone. */
export const DEFAULT_STYLE = { foreground: "#000000", background: "#ffffff", error_correction: "M", margin: 4 } as const;
/** Below this WCAG contrast ratio phone cameras start to miss codes; the editor refuses such pairs. */
export const MIN_CONTRAST = 3;

const options = (style: Style, size: number) => ({
  errorCorrectionLevel: style.error_correction ?? DEFAULT_STYLE.error_correction,
  margin: style.margin ?? DEFAULT_STYLE.margin,
  width: size,
  color: { dark: style.foreground ?? DEFAULT_STYLE.foreground, light: style.background ?? DEFAULT_STYLE.background },
});

/** What a version-40 code holds in byte mode (UTF-8) at each error-correction level. */
export const MAX_BYTES = { L: 2953, M: 2331, Q: 1663, H: 1273 } as const;
export type ErrorCorrection = keyof typeof MAX_BYTES;

/** Why `text` cannot be drawn as a QR code at `level`, or null. */
export function capacityProblem(text: string, level: ErrorCorrection = DEFAULT_STYLE.error_correction): string | null {
  // Whatever fits in byte mode at H fits everywhere: only longer texts need the encoder's word.
  if (Buffer.byteLength(text) <= MAX_BYTES.H) return null;
  try {
    QRCode.create(text, { errorCorrectionLevel: level });
    return null;
  } catch {
    return `is too long for a QR code at error correction ${level}: at most ${MAX_BYTES[level]} bytes (UTF-8)`;
  }
}

export const renderSvg = (text: string, style: Style, size = DEFAULT_SIZE): Promise<string> =>
  QRCode.toString(text, { ...options(style, size), type: "svg" });

/** Node only (PNG encoding). */
export const renderPng = (text: string, style: Style, size = DEFAULT_SIZE): Promise<Buffer> =>
  QRCode.toBuffer(text, { ...options(style, size), type: "png" });

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The WCAG contrast ratio of two #rrggbb colours, 1 (same) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** Why the style's colours would not scan reliably, or null. */
export function contrastProblem(style: Style): string | null {
  const ratio = contrastRatio(style.foreground ?? DEFAULT_STYLE.foreground, style.background ?? DEFAULT_STYLE.background);
  if (ratio >= MIN_CONTRAST) return null;
  return `The foreground and background are too close to scan reliably (contrast ${ratio.toFixed(1)}:1, at least ${MIN_CONTRAST}:1 needed)`;
}
