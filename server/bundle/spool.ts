// A bundle's body, any size, kept in a private temporary file while it arrives, so that it can
// be read twice (checked whole, then written) with memory for one line at a time. A line longer
// than MAX_LINE_BYTES ends the upload at once: its bytes are never held together.
import { createReadStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { DomainError } from "../platform/errors";
import { MAX_LINE_BYTES } from "./lines";

export type Spooled = { file: string; bytes: number; dispose: () => Promise<void> };
/** A bundle's numbered lines, which can be read more than once (checked, then written). */
export type Lines = () => AsyncIterable<[number, string]> | Iterable<[number, string]>;

const NEWLINE = 0x0a;

/** The body in a file of its own (0600, in a 0700 folder); 400 with the line number of a line too long. */
export async function spoolBody(body: AsyncIterable<Uint8Array> | null): Promise<Spooled> {
  const folder = await mkdtemp(path.join(tmpdir(), "qr-bundle-"));
  const dispose = () => rm(folder, { recursive: true, force: true });
  const file = path.join(folder, "bundle.ndjson");
  const handle = await open(file, "wx", 0o600);
  try {
    let line = 1;
    let length = 0;
    let bytes = 0;
    for await (const chunk of body ?? []) {
      let start = 0;
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
        if (length + at - start > MAX_LINE_BYTES) throw lineTooLong(line);
        line += 1;
        length = 0;
        start = at + 1;
      }
      length += chunk.length - start;
      if (length > MAX_LINE_BYTES) throw lineTooLong(line);
      await handle.write(chunk);
      bytes += chunk.length;
    }
    await handle.close();
    return { file, bytes, dispose };
  } catch (error) {
    await handle.close().catch(() => undefined);
    await dispose();
    throw error;
  }
}

const lineTooLong = (line: number) =>
  new DomainError("invalid", "A line is too long", undefined, undefined, [
    { line, error: `line is longer than ${MAX_LINE_BYTES} bytes` },
  ]);

/** The spooled lines with their numbers (from 1, blank lines counted). */
export async function* spooledLines(file: string): AsyncGenerator<[number, string]> {
  const reader = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of reader) yield [++line, text];
}
