// The decode check: a style is stored only if the code it draws reads back, with a standard
// decoder (zxing-cpp through zxing-wasm, its .wasm loaded from node_modules), to the text it
// encodes. Drawn at 256 px (wider for a dense code: 3 px a module at least), as the contract
// says. The cheap reasons (colours, logo share, quiet zone) are found first without drawing.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import { processSingleton } from "../platform/process-singleton";
import { renderPixels } from "./qrImage";
import { cheapUnreadableReason, MIN_MARGIN_WITH_FRAME, resolvedStyle } from "./qrStyle";
import type { Style } from "../library/validation";

export const CHECK_SIZE = 256;
/** Below this many pixels a module, decoders miss dense codes that a printed one would scan. */
const CHECK_MODULE_PIXELS = 3;

/** The decoder, loaded once per thread from the package's own .wasm (never from a CDN). */
const decoder = processSingleton("images.zxing", () => {
  // Resolved from the project's root: Next's bundle moves this file, not node_modules.
  const wasm = readFileSync(
    createRequire(join(process.cwd(), "package.json")).resolve("zxing-wasm/reader/zxing_reader.wasm"),
  );
  return prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
    fireImmediately: true,
  });
});

/** What zxing reads in an RGBA image, or null. */
export async function decodePixels(image: {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}): Promise<string | null> {
  await decoder;
  const [found] = await readBarcodes({ ...image, colorSpace: "srgb" } as ImageData, {
    formats: ["QRCode"],
    tryHarder: true,
    maxNumberOfSymbols: 1,
  });
  return found?.text ?? null;
}

/** Why a code of `text` drawn with `style` would not scan (the contract's reason), or null. */
export async function unreadableReason(text: string, style: Style): Promise<string | null> {
  const cheap = cheapUnreadableReason(style);
  if (cheap) return cheap;
  let pixels;
  try {
    pixels = await renderPixels(text, style, CHECK_SIZE, CHECK_MODULE_PIXELS);
  } catch (error) {
    if (style.logo) return "the logo is not a readable image";
    throw error;
  }
  if ((await decodePixels(pixels)) === text) return null;
  // The decoder says no more than "not found": name the likeliest cause of what the style changed.
  const s = resolvedStyle(style);
  if (s.margin < MIN_MARGIN_WITH_FRAME) return "quiet zone too small";
  if (s.logo) return "logo covers too much of the code";
  return "no finder patterns found";
}
