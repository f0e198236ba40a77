// Reads a ZIP back (yauzl): every entry's name and bytes, in the archive's order.
import { buffer } from "node:stream/consumers";
import yauzl from "yauzl";

export type ZipEntry = { name: string; data: Buffer };

export async function unzip(archive: Buffer): Promise<ZipEntry[]> {
  const zip = await yauzl.fromBufferPromise(archive, { lazyEntries: true });
  const entries: ZipEntry[] = [];
  for await (const entry of zip.eachEntry())
    entries.push({ name: entry.fileName, data: await buffer(await zip.openReadStreamPromise(entry)) });
  return entries;
}
