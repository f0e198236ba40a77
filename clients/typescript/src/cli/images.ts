// qr-records images <dir>: the API's ZIP of QR images (GET /v1/qrcodes/images.zip and
// /v1/dynqrcodes/images.zip), downloaded to a file in <dir> (a ZIP's index is at its end, so it is
// read from disk, not memory) and unpacked there with yauzl, one image per code.
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream } from "node:stream/web";
import yauzl from "yauzl";
import type { Client } from "../client";
import type { operations } from "../schema";

export type ImagesKind = "static" | "dynamic";
/** The query of the ZIP routes; `size_mm` (PDF) goes through as the server documents it. */
type ZipQuery = NonNullable<operations["qrcodes-imagesZip"]["parameters"]["query"]>;
export type ImagesOptions = { format?: string; size?: number; sizeMm?: number; ids?: string };

/** Unpacks the archive's entries into `dir` under their own names; the number of files written. */
async function unpack(archive: string, dir: string): Promise<number> {
  // yauzl refuses absolute names and `..` (validateFileName): nothing lands outside `dir`.
  const zip = await yauzl.openPromise(archive, { lazyEntries: true });
  let written = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith("/")) continue;
      await pipeline(
        await zip.openReadStreamPromise(entry),
        createWriteStream(path.join(dir, path.basename(entry.fileName))),
      );
      written++;
    }
  } finally {
    zip.close();
  }
  return written;
}

/** Downloads one kind's ZIP into `dir` and unpacks it; the number of images written. */
export async function downloadImages(
  client: Client,
  kind: ImagesKind,
  dir: string,
  options: ImagesOptions,
): Promise<number> {
  const { api, unwrap } = client;
  const query = {
    ...(options.format ? { format: options.format } : {}),
    ...(options.size !== undefined ? { size: options.size } : {}),
    ...(options.sizeMm !== undefined ? { size_mm: options.sizeMm } : {}),
    ...(options.ids ? { ids: options.ids } : {}),
  } as ZipQuery;
  const body =
    kind === "static"
      ? await unwrap(api.GET("/qrcodes/images.zip", { params: { query }, parseAs: "stream" }))
      : await unwrap(api.GET("/dynqrcodes/images.zip", { params: { query }, parseAs: "stream" }));
  if (!body) throw new Error("The ZIP answered without a body");
  await mkdir(dir, { recursive: true });
  const archive = path.join(dir, `.qr-records-${kind}-${process.pid}.zip`);
  try {
    await pipeline(Readable.fromWeb(body as ReadableStream<Uint8Array>), createWriteStream(archive));
    return await unpack(archive, dir);
  } finally {
    await rm(archive, { force: true });
  }
}
