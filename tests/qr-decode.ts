// Reads a QR image back (jsQR over the decoded PNG pixels): what a phone camera would read.
import jsQR from "jsqr";
import { PNG } from "pngjs";

export function decodePng(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
}

/** The size of a PNG in pixels. */
export function pngSize(png: Buffer): { width: number; height: number } {
  const image = PNG.sync.read(png);
  return { width: image.width, height: image.height };
}
