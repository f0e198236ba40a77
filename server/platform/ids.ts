// Identifiers. Record ids are time-ordered (so "newest first" is "id descending" and paging
// is a plain keyset); public codes and keys are random from a cryptographic source.
import { randomFillSync } from "node:crypto";
import { processSingleton } from "./process-singleton";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz";

// Random bytes are read from the system in blocks, as crypto.randomInt does: a read per id or
// per character cost each scan's id several microseconds.
// One per process: two copies of this module must not hand out the same bytes or sequence.
const state = processSingleton("ids", () => ({
  pool: Buffer.alloc(4096),
  taken: 4096,
  lastMs: 0,
  sequence: 0,
  stamp: "",
}));
function randomByte(): number {
  if (state.taken === state.pool.length) {
    randomFillSync(state.pool);
    state.taken = 0;
  }
  return state.pool[state.taken++];
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

/** `<prefix>_` + 9 chars of milliseconds + 4 of a per-millisecond sequence + 8 random, base36. */
export function timeOrderedId(prefix: string): string {
  const now = Date.now();
  if (now > state.lastMs) {
    state.lastMs = now;
    state.sequence = 0;
    // Written once a millisecond: a double's base-36 text costs more than the rest of the id.
    state.stamp = stampOf(now);
  } else {
    state.sequence++;
  }
  return `${prefix}_${state.stamp}${state.sequence.toString(36).padStart(4, "0")}${randomString(8, BASE36)}`;
}

/** The lowest id `timeOrderedId(prefix)` gives at `ms`: every id made before then sorts below it. */
export function firstIdAt(prefix: string, ms: number): string {
  return `${prefix}_${stampOf(ms)}`;
}

const stampOf = (ms: number) => ms.toString(36).padStart(9, "0");
