// The rules of a QR style that need no drawing: defaults, limits, and the cheap reasons a
// style cannot scan (colours, logo share, quiet zone), found before anything is drawn. Safe
// in the browser: the style editor shows the same reasons as the API's 400.

/** What a style leaves unsaid: black on white, error correction M, the standard 4-module quiet zone. */
export const DEFAULT_STYLE = {
  foreground: "#000000",
  background: "#ffffff",
  error_correction: "M",
  margin: 4,
} as const;
/** Below this WCAG contrast ratio phone cameras start to miss codes. */
export const MIN_CONTRAST = 3;

export const MODULE_SHAPES = ["square", "dot", "rounded"] as const;
export const FINDER_SHAPES = ["square", "rounded", "dot"] as const;
/** A logo's data URL, at most 64 KiB (not counted in the 4 KiB of the rest of the style). */
export const MAX_LOGO_BYTES = 64 * 1024;
export const FRAME_TEXT_MAX = 24;

/**
 * A style's drawing choices as these rules read them. The API's schema of a style (styleField,
 * validation.ts) checks what is sent; a type check beside it fails the build when the two
 * differ in any field.
 */
export type StyleChoices = {
  foreground?: string;
  background?: string;
  error_correction?: "L" | "M" | "Q" | "H";
  margin?: number;
  module_shape?: (typeof MODULE_SHAPES)[number];
  finder_shape?: (typeof FINDER_SHAPES)[number];
  finder_color?: string;
  logo?: string;
  logo_size?: number;
  frame?: { text: string; color: string };
};

/** Image formats and sizes, here so that the library page's download form offers what the server takes. */
export const IMAGE_FORMATS = ["svg", "png", "pdf"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export const MIN_SIZE = 64;
export const MAX_SIZE = 2048;
export const DEFAULT_SIZE = 512;
/** A PDF's width in millimetres (the code with its quiet zone and frame). */
export const SIZE_MM = { min: 10, max: 500, default: 50 } as const;
/**
 * `logo_size`: the share of the code's area (its modules, quiet zone left out) that the logo's
 * padded square covers, in percent. Above MAX_LOGO_SHARE error correction H cannot restore
 * it with margin on every shape (measured: docs/IMAGES.md).
 */
export const LOGO_SIZE = { min: 1, max: 50, default: 8 } as const;
export const MAX_LOGO_SHARE = 10;
/** A frame's border sits right at the quiet zone: at least this many modules of it keep the finders apart from it. */
export const MIN_MARGIN_WITH_FRAME = 2;

export const UNREADABLE = "style makes the code unreadable";
export const unreadable = (reason: string) => `${UNREADABLE}: ${reason}`;

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

/** A style with every drawing choice decided. */
export function resolvedStyle(style: StyleChoices) {
  const foreground = style.foreground ?? DEFAULT_STYLE.foreground;
  return {
    foreground,
    background: style.background ?? DEFAULT_STYLE.background,
    // A logo hides modules: only H restores enough of them.
    error_correction: style.logo ? ("H" as const) : (style.error_correction ?? DEFAULT_STYLE.error_correction),
    margin: style.margin ?? DEFAULT_STYLE.margin,
    module_shape: style.module_shape ?? "square",
    finder_shape: style.finder_shape ?? "square",
    finder_color: style.finder_color ?? foreground,
    logo: style.logo ?? null,
    logo_size: style.logo_size ?? LOGO_SIZE.default,
    frame: style.frame ?? null,
  };
}
export type ResolvedStyle = ReturnType<typeof resolvedStyle>;

/**
 * The reason a style cannot scan that is found without drawing it, or null. The decode check
 * (server/images/styleCheck.ts) has the last word on the rest.
 */
export function cheapUnreadableReason(style: StyleChoices): string | null {
  const s = resolvedStyle(style);
  if (contrastRatio(s.foreground, s.background) < MIN_CONTRAST) return "contrast between colors is too low";
  // Finder patterns darker than the background in a light-on-dark code (or the reverse) are not finder patterns to a decoder.
  const lightOnDark = luminance(s.foreground) > luminance(s.background);
  if (lightOnDark !== luminance(s.finder_color) > luminance(s.background)) return "no finder patterns found";
  if (contrastRatio(s.finder_color, s.background) < MIN_CONTRAST) return "contrast between colors is too low";
  if (s.frame && s.margin < MIN_MARGIN_WITH_FRAME) return "quiet zone too small";
  if (s.logo && s.logo_size > MAX_LOGO_SHARE) return "logo covers too much of the code";
  return null;
}
