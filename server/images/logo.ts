// A style's logo: a PNG or SVG data URL. Checked before anything decodes it (a PNG's header
// says its pixels: huge IHDR dimensions are a denial of service in decoders; an SVG may carry
// scripts or fetch other resources), and never embedded as sent: the renderer rasterises it.
import { memoize } from "../platform/memoize";

/** A PNG logo's pixels, read from its header before any decoding (a huge IHDR is a denial of service). */
const MAX_LOGO_PIXELS = 2048 * 2048;

const DATA_URL = /^data:image\/(png|svg\+xml);base64,([A-Za-z0-9+/]*={0,2})$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type Logo = { type: "png" | "svg"; bytes: Buffer };

/** The logo's type and bytes, or null when it is not a base64 PNG or SVG data URL. */
export function parseLogo(dataUrl: string): Logo | null {
  const match = DATA_URL.exec(dataUrl);
  if (!match) return null;
  return { type: match[1] === "png" ? "png" : "svg", bytes: Buffer.from(match[2], "base64") };
}

/** A PNG's width and height from its IHDR chunk, or null when the header is not a PNG's. */
export function pngDimensions(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString("latin1", 12, 16) !== "IHDR")
    return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

// What an SVG logo may not hold: anything that runs, or that reaches beyond the file itself.
const SVG_REFUSED: [RegExp, string][] = [
  [/<\s*script/i, "a script"],
  [/\son[a-z]+\s*=/i, "an event handler"],
  [/<\s*foreignObject/i, "a foreignObject"],
  [/<!\s*(DOCTYPE|ENTITY)/i, "a DOCTYPE or entity"],
  [/@import/i, "an external reference"],
  [/url\(\s*["']?\s*(?!#)/i, "an external reference"],
  [/<\s*(iframe|embed|object|audio|video)\b/i, "an embedded document"],
  // An animation may set an href after any check of the markup.
  [/<\s*(animate|animateMotion|animateTransform|set)\b/i, "an animation"],
];
const HREF = /(?:^|[\s"'])(?:xlink:)?href\s*=\s*("([^"]*)"|'([^']*)')/gi;

/** Why an SVG logo is refused, or null. */
function svgProblem(svg: string): string | null {
  if (!/<svg[\s>]/i.test(svg)) return "an SVG logo must be an SVG document";
  for (const [pattern, what] of SVG_REFUSED) if (pattern.test(svg)) return `an SVG logo must not contain ${what}`;
  for (const match of svg.matchAll(HREF)) {
    const target = (match[2] ?? match[3]).trim();
    if (target !== "" && !target.startsWith("#")) return "an SVG logo must not contain an external reference";
  }
  return null;
}

/**
 * Why `dataUrl` cannot be a logo, or null (the message names the field). The last few answers
 * are remembered: a create checks its logo as input, then again in its record as output (each
 * read of a 64 KiB SVG's markup costs milliseconds).
 */
export const logoProblem = memoize(
  "logoProblem",
  (dataUrl): string | null => {
    const logo = parseLogo(dataUrl);
    if (!logo) return "style.logo must be a data:image/png;base64, or data:image/svg+xml;base64, URL";
    if (logo.type === "svg") {
      const problem = svgProblem(logo.bytes.toString("utf8"));
      return problem && `style.logo: ${problem}`;
    }
    const size = pngDimensions(logo.bytes);
    if (!size) return "style.logo is not a PNG image";
    if (size.width === 0 || size.height === 0 || size.width * size.height > MAX_LOGO_PIXELS)
      return "style.logo: a PNG logo must be at most 2048×2048 pixels";
    return null;
  },
  16,
);
