// qr-records export static|dynamic|scans CODE: the API's CSV, streamed to a file or stdout.
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Client } from "../client";

export type ExportWhat =
  { what: "static" } | { what: "dynamic" } | { what: "scans"; code: string; from?: string; to?: string };

export async function exportCsv(client: Client, target: ExportWhat, out: string | undefined): Promise<void> {
  const { api, unwrap } = client;
  const body =
    target.what === "static"
      ? await unwrap(api.GET("/qrcodes/export", { parseAs: "stream" }))
      : target.what === "dynamic"
        ? await unwrap(api.GET("/dynqrcodes/export", { parseAs: "stream" }))
        : await unwrap(
            api.GET("/dynqrcodes/{code}/analytics/export", {
              params: { path: { code: target.code }, query: { from: target.from, to: target.to } },
              parseAs: "stream",
            }),
          );
  if (!body) throw new Error("The export answered without a body");
  const rows = Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
  await (out ? pipeline(rows, createWriteStream(out)) : pipeline(rows, process.stdout, { end: false }));
}
