// The frame's text, laid out once for the three outputs: each character goes to the first
// bundled Noto font that draws it (Latin, Greek and Cyrillic; Arabic; Hebrew; Chinese and
// Japanese; Korean; emoji), the text is split into runs of one font and one direction
// (Unicode bidirectional algorithm, bidi-js), each run is shaped by fontkit (Arabic joining,
// marks, ligatures, emoji sequences) and the runs are put in visual order. SVG and PNG fill
// the glyphs' outlines; the PDF writes each run as text in the same font (embedded, subset),
// so that it prints the same and its text can be copied. Node only (reads the fonts from
// node_modules); the fonts and their licence: docs/IMAGES.md.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import bidiFactory from "bidi-js";
import { LRUCache } from "lru-cache";
import * as fontkit from "fontkit";
import { processSingleton } from "../platform/process-singleton";

/** The bundled fonts (bold), in the order a character looks for one that draws it. */
const FACE_FILES = [
  "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf",
  "@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf",
  "@expo-google-fonts/noto-sans-hebrew/700Bold/NotoSansHebrew_700Bold.ttf",
  "@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf",
  "@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf",
  "@expo-google-fonts/noto-emoji/700Bold/NotoEmoji_700Bold.ttf",
] as const;
const EMOJI_FACE = FACE_FILES.length - 1;

export type Face = { bytes: Buffer; font: fontkit.Font };

/** Per thread: the fonts, each read when a character first needs it (fontkit parses a table at its first use), and caches. */
const loaded = processSingleton("images.faces", () => ({
  /** Layouts by text: every image and check of a record lays out the same caption. */
  layouts: new LRUCache<string, CaptionLayout>({ max: 256 }),
  /** Outlines by text, place and size: a batch's codes of one version share theirs. */
  outlines: new LRUCache<string, string>({ max: 64 }),
  faces: FACE_FILES.map((): Face | null => null),
  bidi: null as ReturnType<typeof bidiFactory> | null,
  graphemes: new Intl.Segmenter("und", { granularity: "grapheme" }),
}));
const graphemes = (text: string) => [...loaded.graphemes.segment(text)];

function face(index: number): Face {
  return (loaded.faces[index] ??= (() => {
    // Resolved from the project's root: Next's bundle moves this file, not node_modules.
    const bytes = readFileSync(createRequire(join(process.cwd(), "package.json")).resolve(FACE_FILES[index]));
    return { bytes, font: fontkit.create(bytes) as fontkit.Font };
  })());
}
const covers = (index: number, c: string) =>
  IGNORABLE.test(c) || face(index).font.hasGlyphForCodePoint(c.codePointAt(0)!);
const bidi = () => (loaded.bidi ??= bidiFactory());

/** Joiners, variation selectors and tags: drawn by the sequence they are part of, needing no glyph of their own. */
const IGNORABLE = /[\u200c\u200d\ufe00-\ufe0f\u{e0020}-\u{e007f}\u{e0100}-\u{e01ef}]/u;
/** Characters of no script of their own (spaces, punctuation, digits, marks): they stay in their neighbours' font when it has them. */
const COMMON = /^[\p{Script=Common}\p{Script=Inherited}]+$/u;
/** A sequence asking for the emoji presentation (VS16, a skin tone, a joined sequence, keycap, flag), or an emoji-only character. */
const EMOJI = /\ufe0f|\u200d|[\u{1f3fb}-\u{1f3ff}\u20e3\u{1f1e6}-\u{1f1ff}]|^\p{Emoji_Presentation}/u;
/** Scripts that fontkit lays out right to left (it takes a run's direction from the first script in it). */
const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
/** OpenType features applied by every output (fontkit's defaults plus kerning), so the PDF's runs are shaped as the others'. */
export const FEATURES = ["kern"];

const drawnBy = (index: number, cluster: string) => [...cluster].every((c) => covers(index, c));

/** The face that draws a whole cluster: the emoji font first for emoji sequences, the neighbour's for shared characters. */
function faceFor(cluster: string, previous: number | null): number | null {
  if (EMOJI.test(cluster) && drawnBy(EMOJI_FACE, cluster)) return EMOJI_FACE;
  // (Not the emoji font's: its spaces and digits are an emoji wide.)
  if (previous !== null && previous !== EMOJI_FACE && COMMON.test(cluster) && drawnBy(previous, cluster))
    return previous;
  const index = FACE_FILES.findIndex((_, i) => drawnBy(i, cluster));
  return index < 0 ? null : index;
}

/**
 * The characters of `text` that no bundled font draws (private use, unassigned, scripts
 * not bundled), each once, in order.
 */
export function undrawableCharacters(text: string): string[] {
  return [...new Set([...text].filter((c) => !FACE_FILES.some((_, i) => covers(i, c))))];
}

/** One run of one font and one direction, at 1 unit a em: its glyphs' outlines and where the run starts. */
export type CaptionRun = {
  face: Face;
  text: string;
  rtl: boolean;
  x: number;
  advance: number;
  outline: fontkit.Glyph[];
  positions: fontkit.GlyphPosition[];
};
export type CaptionLayout = { text: string; runs: CaptionRun[]; width: number };

/** Runs in logical order: one font and one bidi level, in a direction fontkit finds by itself. */
function logicalRuns(text: string) {
  const { levels } = bidi().getEmbeddingLevels(text, "auto");
  const runs: { face: number; level: number; text: string }[] = [];
  let previous: number | null = null;
  for (const { segment, index: at } of graphemes(text)) {
    const font: number = faceFor(segment, previous) ?? 0;
    previous = font;
    const last = runs.at(-1);
    if (last && last.face === font && last.level === levels[at]) last.text += segment;
    else runs.push({ face: font, level: levels[at], text: segment });
  }
  // fontkit lays a run out right to left only if it holds a right-to-left script: neutrals
  // alone at a right-to-left level (" — " between Arabic and Hebrew) are one run a cluster.
  return runs.flatMap((run) =>
    run.level % 2 === 1 && !RTL_SCRIPT.test(run.text)
      ? graphemes(run.text).map(({ segment }) => ({ ...run, text: segment }))
      : [run],
  );
}

/** Reverses each maximal sequence of runs at or above each odd level, highest first (UAX #9, rule L2). */
function visualOrder<R extends { level: number }>(runs: R[]): R[] {
  const out = [...runs];
  const highest = Math.max(0, ...out.map((r) => r.level));
  const lowestOdd = Math.min(...out.map((r) => r.level).filter((l) => l % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < out.length; i++) {
      if (out[i].level < level) continue;
      let end = i;
      while (end + 1 < out.length && out[end + 1].level >= level) end++;
      out.splice(i, end - i + 1, ...out.slice(i, end + 1).reverse());
      i = end;
    }
  }
  return out;
}

/** The text laid out at a size of 1 (em), left edge at 0, baseline at 0, y up as in fonts. */
export function layoutCaption(text: string): CaptionLayout {
  const cached = loaded.layouts.get(text);
  if (cached) return cached;
  let x = 0;
  const runs = visualOrder(logicalRuns(text)).map(({ face: index, level, text: runText }): CaptionRun => {
    const { font } = face(index);
    const { glyphs, positions } = font.layout(runText, FEATURES);
    const em = font.unitsPerEm;
    const advance = positions.reduce((sum, p) => sum + p.xAdvance, 0) / em;
    const run = { face: face(index), text: runText, rtl: level % 2 === 1, x, advance, outline: glyphs, positions };
    x += advance;
    return run;
  });
  const layout = { text, runs, width: x };
  loaded.layouts.set(text, layout);
  return layout;
}

const num = (value: number) => String(Math.round(value * 1000) / 1000);

/**
 * SVG path data of the laid-out text's outlines, `size` units a em, its left end at `left`
 * and its baseline at `baseline` (y down, as in SVG and canvases).
 */
export function captionPath(layout: CaptionLayout, left: number, baseline: number, size: number): string {
  const key = JSON.stringify([layout.text, left, baseline, size]);
  const cached = loaded.outlines.get(key);
  if (cached !== undefined) return cached;
  const parts: string[] = [];
  for (const run of layout.runs) {
    const scale = size / run.face.font.unitsPerEm;
    let pen = left + run.x * size;
    run.outline.forEach((glyph, i) => {
      const p = run.positions[i];
      const [ox, oy] = [pen + p.xOffset * scale, baseline - p.yOffset * scale];
      const point = (args: number[]) =>
        args.map((v, k) => num(k % 2 === 0 ? ox + v * scale : oy - v * scale)).join(" ");
      for (const { command, args } of glyph.path.commands) {
        if (command === "moveTo") parts.push(`M${point(args)}`);
        else if (command === "lineTo") parts.push(`L${point(args)}`);
        else if (command === "quadraticCurveTo") parts.push(`Q${point(args)}`);
        else if (command === "bezierCurveTo") parts.push(`C${point(args)}`);
        else parts.push("Z");
      }
      pen += p.xAdvance * scale;
    });
  }
  const outline = parts.join("");
  loaded.outlines.set(key, outline);
  return outline;
}
