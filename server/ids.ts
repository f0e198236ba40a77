// Identifiers. Record ids are time-ordered (so "newest first" is "id descending" and paging
// is a plain keyset); public codes and keys are random from a cryptographic source.
import { randomFillSync } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz";

// Random bytes are read from the system in blocks, as crypto.randomInt does: a read per id or
// per character cost each scan's id several microseconds.
const pool = Buffer.alloc(4096);
let taken = pool.length;
function randomByte(): number {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  return pool[taken++];
}

export function randomString(length: number, alphabet = BASE62): string {
  // Bytes at or over the last whole multiple of the alphabet's size are skipped, so that every
  // character is equally likely.
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

let lastMs = 0;
let sequence = 0;

/** `<prefix>_` + 9 chars of milliseconds + 4 of a per-millisecond sequence + 8 random, base36. */
export function timeOrderedId(prefix: string): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else {
    sequence++;
  }
  return `${prefix}_${lastMs.toString(36).padStart(9, "0")}${sequence.toString(36).padStart(4, "0")}${randomString(8, BASE36)}`;
}
