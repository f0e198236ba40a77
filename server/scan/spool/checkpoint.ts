// The checkpoint: the position up to which every record is known to be in the database, kept
// in a file of its own as "segment offset".
import fs from "node:fs";
import path from "node:path";
import { offsetOf, positionOf, segmentOf, type Position } from "./segments";

export function readCheckpoint(dir: string): Position {
  try {
    const [segment, offset] = fs.readFileSync(path.join(dir, "checkpoint"), "utf8").trim().split(" ").map(Number);
    return Number.isSafeInteger(segment) && Number.isSafeInteger(offset) && segment >= 0 && offset >= 0
      ? positionOf(segment, offset)
      : 0;
  } catch {
    return 0; // none yet, or unreadable: everything is replayed, and the scans' ids keep it exact
  }
}

/** Atomically: a new file renamed over the old. */
export function writeCheckpoint(dir: string, position: Position): void {
  const file = path.join(dir, "checkpoint");
  fs.writeFileSync(`${file}.new`, `${segmentOf(position)} ${offsetOf(position)}\n`, { mode: 0o600 });
  fs.renameSync(`${file}.new`, file);
}
