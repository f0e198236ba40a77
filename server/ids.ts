// Identifiers. Record ids are time-ordered (so "newest first" is "id descending" and paging
// is a plain keyset); public codes and keys are random from a cryptographic source.
import { randomInt } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz";

export function randomString(length: number, alphabet = BASE62): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
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
