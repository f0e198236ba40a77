// The spool's segments: numbered files of framed records. A position names a segment and a
// byte offset in it as one number; a backlog is read back from a segment a part at a time.
import fs from "node:fs";

/** Segment number × 2^32 + the byte offset just after a record: positions order as records do. */
export type Position = number;
const SPAN = 2 ** 32;
export const positionOf = (segment: number, offset: number): Position => segment * SPAN + offset;
export const segmentOf = (position: Position) => Math.floor(position / SPAN);
export const offsetOf = (position: Position) => position % SPAN;

/** A segment's file name; its number is the first group. */
export const SEGMENT = /^scans-(\d{12})\.spool$/;
export const segmentFile = (n: number) => `scans-${String(n).padStart(12, "0")}.spool`;

/** Up to `size` bytes of a file from `offset` (fewer at its end; none when it is gone). */
export async function readAt(file: string, offset: number, size: number): Promise<Buffer> {
  const handle = await fs.promises.open(file, "r").catch(() => null);
  if (!handle) return Buffer.alloc(0);
  try {
    const data = Buffer.allocUnsafe(size);
    const { bytesRead } = await handle.read(data, 0, size, offset);
    return data.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
