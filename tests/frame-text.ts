// The frame texts of tests/api/frame-text.integration.test.ts, one a script, and the frame's band of
// their reference renderings (tests/fixtures/frame-text/*.png: the PNG renderer's, looked
// at by a person when written). `npx tsx tests/frame-text.ts` writes the references again.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";

export const FRAME_TEXTS = {
  "latin-extended": "Zażółć gęślą jaźń",
  greek: "Καλημέρα κόσμε",
  cyrillic: "Съешь же ещё",
  arabic: "قائمة الطعام",
  hebrew: "תפריט היום",
  japanese: "メニュー 日本語",
  chinese: "欢迎光临",
  korean: "오늘의 메뉴",
  // (Not a skin tone: the monochrome emoji font draws 👍🏽 as 👍, and so the PDF's text says; docs/IMAGES.md.)
  emoji: "🍕 👍 ❤️ 🇵🇱",
  mixed: "Zażółć gęślą — メニュー",
} as const;
export const FRAME_URL = "https://example.com/menu";
export const FRAME_COLOR = "#1a2b3c";
/** The width of the compared images, in pixels. */
export const FRAME_WIDTH = 512;
export const referencePath = (name: string) => path.join("tests/fixtures/frame-text", `${name}.png`);

type Grey = { width: number; height: number; data: Uint8Array };

/**
 * The band under the code, in grey. The frame is one module wide around the code and its
 * band four modules high, so the image is three modules taller than wide.
 */
export function bandOf(png: Buffer): Grey {
  const image = PNG.sync.read(png);
  const top = Math.round(image.width - (image.height - image.width) / 3);
  const height = image.height - top;
  const data = new Uint8Array(image.width * height);
  for (let i = 0; i < data.length; i++) {
    const at = (image.width * top + i) * 4;
    const alpha = image.data[at + 3] / 255;
    // Transparent is white (a page, a screenshot's background).
    const grey = 0.299 * image.data[at] + 0.587 * image.data[at + 1] + 0.114 * image.data[at + 2];
    data[i] = Math.round(grey * alpha + 255 * (1 - alpha));
  }
  return { width: image.width, height, data };
}

/**
 * How many pixels of one band have no pixel within one of theirs in the other band that is
 * within a third of full scale of its grey, either way: renderers smooth edges and round
 * positions differently (a pixel's shift), but a glyph that differs in shape, or a box in
 * place of a glyph, leaves many such pixels. Over the rows both have (heights may differ by
 * the renderers' rounding).
 */
export function bandDifference(a: Grey, b: Grey): number {
  if (a.width !== b.width || Math.abs(a.height - b.height) > 2) return Infinity;
  const rows = Math.min(a.height, b.height);
  const unmatched = (x: Grey, y: Grey) => {
    let count = 0;
    for (let row = 0; row < rows; row++) {
      for (let col = 0; col < x.width; col++) {
        const grey = x.data[row * x.width + col];
        let near = false;
        for (let dr = -1; dr <= 1 && !near; dr++) {
          for (let dc = -1; dc <= 1 && !near; dc++) {
            const [r, c] = [row + dr, col + dc];
            near = r >= 0 && r < rows && c >= 0 && c < y.width && Math.abs(y.data[r * y.width + c] - grey) <= 85;
          }
        }
        if (!near) count++;
      }
    }
    return count;
  };
  return Math.max(unmatched(a, b), unmatched(b, a));
}

export const greyPng = ({ width, height, data }: Grey): Buffer => {
  const png = new PNG({ width, height, colorType: 0, inputColorType: 0, inputHasAlpha: false });
  png.data = Buffer.from(data);
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false });
};

async function writeReferences() {
  const { renderPng } = await import("../server/images/qrImage");
  mkdirSync("tests/fixtures/frame-text", { recursive: true });
  for (const [name, text] of Object.entries(FRAME_TEXTS)) {
    const png = await renderPng(FRAME_URL, { frame: { text, color: FRAME_COLOR } }, FRAME_WIDTH);
    writeFileSync(referencePath(name), greyPng(bandOf(png)));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await writeReferences();
