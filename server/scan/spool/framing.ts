// The spool's records: a 12-byte header (magic, payload length, CRC-32 of the payload) and the
// payload. A process killed in the middle of a write, or a machine that lost the end of a
// file, leaves at most a torn last record: its header or payload is short, or its checksum
// does not match. Reading stops there; the record is skipped, never half-read.
import { crc32 } from "node:zlib";

const MAGIC = 0x51525331; // "QRS1"
export const HEADER_BYTES = 12;

/** One buffer holding every payload framed, for a single write. */
export function frame(payloads: Buffer[]): Buffer {
  let size = 0;
  for (const p of payloads) size += HEADER_BYTES + p.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of payloads) {
    out.writeUInt32LE(MAGIC, at);
    out.writeUInt32LE(p.length, at + 4);
    out.writeUInt32LE(crc32(p), at + 8);
    p.copy(out, at + HEADER_BYTES);
    at += HEADER_BYTES + p.length;
  }
  return out;
}

export type Unframed = {
  /** Each whole record's payload and the offset just after it. */
  records: { payload: Buffer; end: number }[];
  /** Where reading stopped before the end of the data, and why (a torn or damaged record). */
  torn: { offset: number; reason: string } | null;
};

/** The whole records of `data` from `start`; stops at the first record that is not whole. */
export function unframe(data: Buffer, start = 0): Unframed {
  const records: Unframed["records"] = [];
  let at = start;
  while (at < data.length) {
    if (data.length - at < HEADER_BYTES) return { records, torn: { offset: at, reason: "short header" } };
    if (data.readUInt32LE(at) !== MAGIC) return { records, torn: { offset: at, reason: "no record header" } };
    const length = data.readUInt32LE(at + 4);
    const end = at + HEADER_BYTES + length;
    if (end > data.length) return { records, torn: { offset: at, reason: "short payload" } };
    const payload = data.subarray(at + HEADER_BYTES, end);
    if (crc32(payload) !== data.readUInt32LE(at + 8))
      return { records, torn: { offset: at, reason: "checksum mismatch" } };
    records.push({ payload, end });
    at = end;
  }
  return { records, torn: null };
}
