// Request bodies of both edges (/v1 and the pages' tRPC endpoint), bounded before they cost:
// read up to a size, and JSON refused unparsed when it nests deeper or holds more values than
// any request needs (V8's JSON.parse takes a third of a second on a megabyte of `[[[[` or of `{},`).
import { isUtf8 } from "node:buffer";
import { DomainError } from "../platform/errors";
import { yieldToIo } from "../platform/event-loop";

/** No request body of either edge nests deeper (a batch's item's style's frame is 5 levels). */
export const MAX_JSON_DEPTH = 32;

/** A request body as a stream, with its declared length. */
export type BodySource = { headers: { get(name: string): string | null }; body: ReadableStream<Uint8Array> | null };

/** The body's bytes up to `limit`; null when it is larger (a declared length is refused before anything is read). */
export async function readBytes(req: BodySource, limit: number): Promise<Buffer | null> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) return null;
  if (!req.body) return Buffer.alloc(0);
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
  return Buffer.concat(chunks);
}

const NOT_UTF8 = "The body is not valid UTF-8";

/** A body's text. Invalid UTF-8 is refused, not replaced with U+FFFD. */
export function utf8Text(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new DomainError("invalid", NOT_UTF8);
  }
}

/** Bytes decoded per event-loop turn: about a millisecond of work (TextDecoder took 8 to 25 ms on 3 MB of emoji in one piece). */
const DECODE_SLICE_BYTES = 256 * 1024;

/**
 * A large body's text as `utf8Text` gives it, decoded a slice per turn: the bytes are judged
 * valid UTF-8 first in one pass (simdutf, 0.1 ms on 3 MB), then decoded in slices that never
 * cut a character, with a poll for I/O between two.
 */
export async function utf8TextInTurns(bytes: Buffer): Promise<string> {
  if (bytes.byteLength <= DECODE_SLICE_BYTES) return utf8Text(bytes);
  if (!isUtf8(bytes)) throw new DomainError("invalid", NOT_UTF8);
  // As TextDecoder: a leading byte-order mark is not part of the text.
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const parts: string[] = [];
  while (start < bytes.byteLength) {
    let end = Math.min(start + DECODE_SLICE_BYTES, bytes.byteLength);
    // Back to the first byte of the character the slice would cut (continuation bytes are 10xxxxxx).
    while (end < bytes.byteLength && (bytes[end] & 0xc0) === 0x80) end--;
    parts.push(bytes.toString("utf8", start, end));
    start = end;
    if (start < bytes.byteLength) await yieldToIo();
  }
  return parts.join("");
}

/** No request body of either edge holds more values (1,000 import rows of 3 fields; 50 batch items of 20 targets). */
export const MAX_JSON_VALUES = 20_000;

/** The end of the string whose opening quote is at `at` (escaped quotes skipped), or the text's end. */
function stringEnd(text: string, at: number): number {
  for (let from = at + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * Why JSON text is refused before it is parsed, or null: more than MAX_JSON_DEPTH arrays and
 * objects inside one another, or more than MAX_JSON_VALUES values (V8 spends a third of a
 * second on a megabyte of `{},{},…`). One pass over the structure (strings skipped by indexOf),
 * stopping at the first limit passed.
 */
export function jsonShapeProblem(text: string): string | null {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i);
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return TOO_DEEP;
      if (++values > MAX_JSON_VALUES) return TOO_MANY;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c && ++values > MAX_JSON_VALUES) return TOO_MANY;
  }
  return null;
}

const TOO_DEEP = `The body must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;
const TOO_MANY = `The body must hold at most ${MAX_JSON_VALUES} values`;

/** What a raw /v1 route that takes a body gets of it (the bundle's NDJSON): its type, and its bytes as they arrive. */
export type RawBody = { contentType: string | null; stream: AsyncIterable<Uint8Array> | null };
