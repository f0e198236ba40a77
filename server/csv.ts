// Streamed CSV (RFC 4180, UTF-8) written with csv-stringify, a page of rows at a time:
// the next page is read only when the client has taken the previous one (backpressure).
import { stringify } from "csv-stringify/sync";

/** Cells a spreadsheet would run as a formula are prefixed with a quote. */
const FORMULA_START = /^[=+\-@\t\r]/;
const cell = (value: unknown): string | number | boolean => {
  if (value instanceof Date) return value.toISOString().replace(/\.\d{3}Z$/, "Z");
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return String(value);
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
};

export function csvResponse(
  filename: string,
  columns: readonly string[],
  pages: AsyncGenerator<unknown[][]>,
  headers: Record<string, string> = {},
): Response {
  const encoder = new TextEncoder();
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(stringify([columns as string[]], { record_delimiter: "\r\n" })));
        return;
      }
      const next = await pages.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(stringify(next.value.map((row) => row.map(cell)), { record_delimiter: "\r\n" })));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      ...headers,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}

export const datedFilename = (stem: string) => `${stem}-${new Date().toISOString().slice(0, 10)}.csv`;
