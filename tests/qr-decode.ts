// Reads a QR image back, as a phone camera would: jsQR over the decoded PNG pixels, and zxing-cpp.
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { decodePixels } from "../server/images/styleCheck";

export function decodePng(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
}

/** The size of a PNG in pixels. */
export function pngSize(png: Buffer): { width: number; height: number } {
  const image = PNG.sync.read(png);
  return { width: image.width, height: image.height };
}

/** The same PNG read by zxing-cpp (zxing-wasm), the decoder of the server's style check. */
export async function decodePngZxing(png: Buffer): Promise<string | null> {
  const image = PNG.sync.read(png);
  return decodePixels({ data: new Uint8ClampedArray(image.data), width: image.width, height: image.height });
}
