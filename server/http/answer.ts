// What every HTTP front end sends: the /v1 dispatcher, the pages' download routes and the
// Node server build an `Answer` from the domain's data (records, bytes, rows), and turn it into
// a Fetch `Response` (route handlers) or write it to a Node socket (server/http/server.ts).
import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { csvChunks, datedFilename } from "./csv";
import { EDGE_HEADERS } from "../platform/security-headers";

export type Answer = {
  status: number;
  headers: Record<string, string>;
  /** Text or bytes sent whole, or chunks streamed as they come (CSV, ZIP). */
  body: string | Uint8Array | AsyncIterable<string | Uint8Array> | null;
  /** The route template it answered (`/v1/dynqrcodes/{code}`), for metrics and logs. */
  route?: string;
};

export const jsonText = (status: number, text: string | Uint8Array, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { ...headers, "Content-Type": "application/json; charset=utf-8" },
  body: text,
});

export const jsonAnswer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  jsonText(status, JSON.stringify(body), headers);

export const plainAnswer = (status: number, message: string): Answer => ({
  status,
  headers: { "Content-Type": "text/plain; charset=utf-8" },
  body: `${message}\n`,
});

/** Rows as a CSV download, streamed page by page. */
export const csvAnswer = (stem: string, columns: readonly string[], pages: AsyncIterable<unknown[][]>): Answer => ({
  status: 200,
  headers: {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${datedFilename(stem)}"`,
    "Cache-Control": "no-store",
  },
  body: csvChunks(columns, pages),
});

/** Lines of JSON as a download (the bundle), streamed as they are read. */
export const ndjsonAnswer = (stem: string, chunks: AsyncIterable<string>): Answer => ({
  status: 200,
  headers: {
    "Content-Type": "application/x-ndjson; charset=utf-8",
    "Content-Disposition": `attachment; filename="${datedFilename(stem, new Date(), "ndjson")}"`,
    "Cache-Control": "no-store",
  },
  body: chunks,
});

/** A QR image; `download` asks the browser to save the file rather than show it. */
export const imageAnswer = (
  image: { bytes: string | Uint8Array; contentType: string; filename: string },
  download = false,
): Answer => ({
  status: 200,
  headers: {
    "Content-Type": image.contentType,
    "Content-Disposition": `${download ? "attachment" : "inline"}; filename="${image.filename}"`,
    // The style and destination can change: always ask again.
    "Cache-Control": "private, no-cache",
  },
  body: image.bytes,
});

/** A ZIP streamed as it is written. */
export const zipAnswer = ({ filename, chunks }: { filename: string; chunks: AsyncIterable<Uint8Array> }): Answer => ({
  status: 200,
  headers: {
    "Content-Type": "application/zip",
    "Content-Disposition": `attachment; filename="${filename}"`,
    "Cache-Control": "no-store",
  },
  body: chunks,
});

const isStream = (body: Answer["body"]): body is AsyncIterable<string | Uint8Array> =>
  body !== null && typeof body === "object" && Symbol.asyncIterator in body;

/** For route handlers (Fetch). A client that leaves cancels the stream, which ends the domain's reads. */
export function toResponse({ status, headers, body }: Answer): Response {
  if (!isStream(body)) return new Response(body as BodyInit | null, { status, headers });
  const encoder = new TextEncoder();
  const chunks = body[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(typeof next.value === "string" ? encoder.encode(next.value) : next.value);
    },
    async cancel() {
      await chunks.return?.();
    },
  });
  return new Response(stream, { status, headers });
}

/**
 * For the Node server, with the security headers Next would have added. Whole bodies carry
 * their length; Node sends no body in answer to HEAD.
 */
export async function writeAnswer(res: ServerResponse, method: string, answer: Answer): Promise<void> {
  const { status, body } = answer;
  const headers = { ...EDGE_HEADERS, ...answer.headers };
  if (!isStream(body)) {
    res
      .writeHead(status, { ...headers, "Content-Length": body === null ? 0 : Buffer.byteLength(body) })
      .end(body ?? undefined);
    return;
  }
  res.writeHead(status, headers);
  if (method === "HEAD") {
    res.end();
    return;
  }
  // pipeline: backpressure, and a client that leaves destroys the source (the domain's reads end).
  await pipeline(Readable.from(body), res).catch(() => undefined);
}
