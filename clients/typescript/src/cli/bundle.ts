// qr-records bundle export|import: the whole library (every code, rule, design and scan) out as
// NDJSON, and such a file into the key's library, all or nothing (the service's docs/BUNDLE.md).
import { createReadStream, createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { Client } from "../client";

export const BUNDLE_HELP = `Usage: qr-records bundle export [--out FILE]
       qr-records bundle import <file.ndjson>

export: the library's bundle (GET /v1/bundle), streamed to stdout or FILE: every static and
dynamic code with its style, logo, rules, password hash and metadata, and every scan.
import: a bundle into the key's library (POST /v1/bundle), streamed: every line is checked
first, and any bad or conflicting line (listed with its number) means nothing is written.
Codes already imported are skipped with their scans: running it again creates nothing twice.
A personal key, or a team admin's business key.

Options:
  --out FILE        export to FILE instead of stdout
  -h, --help        this help`;

export async function bundleExport(client: Client, out: string | undefined): Promise<void> {
  const body = Readable.fromWeb((await client.bundle.export()) as NodeReadableStream<Uint8Array>);
  await (out ? pipeline(body, createWriteStream(out)) : pipeline(body, process.stdout, { end: false }));
}

export async function bundleImport(client: Client, file: string): Promise<string> {
  const { created, skipped } = await client.bundle.import(createReadStream(file));
  const counts = (c: typeof created) => `${c.static} static, ${c.dynamic} dynamic codes and ${c.scans} scans`;
  return `${file}: ${counts(created)} imported; already there: ${counts(skipped)}`;
}
