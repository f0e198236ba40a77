// Request bodies of both edges (/v1 and the pages' tRPC endpoint), bounded before they cost:
// read up to a size, and JSON refused unparsed when it nests deeper than any request needs
// (V8's JSON.parse takes a third of a second on a megabyte of `[[[[`).
import { DomainError } from "../errors";

/** No request body of either edge nests deeper (a batch's item's style's frame is 5 levels). */
export const MAX_JSON_DEPTH = 32;

/** A request body as a stream, with its declared length. */
export type BodySource = { headers: { get(name: string): string | null }; body: ReadableStream<Uint8Array> | null };

/** The body's text up to `limit` bytes; null when it is larger. Invalid UTF-8 is refused, not replaced with U+FFFD. */
export async function readBody(req: BodySource, limit: number): Promise<string | null> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) return null;
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new DomainError("invalid", "The body is not valid UTF-8");
  }
}

/** Whether JSON text opens more than `max` arrays or objects inside one another (strings skipped); stops at the first level too deep. */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export const TOO_DEEP = `The body must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;
