// qr-records import <file.csv>: rows in batches of 50, each sent with an Idempotency-Key made
// from the file's content and the batch's position, so that running the same file again after
// an interruption replays what was created and creates only the rest, never anything twice.
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import type { Client } from "../client";
import { ApiError, apiError, InvalidRequestError } from "../errors";
import { progress } from "./progress";
import {
  CSV_OPTIONS,
  IMPORT_BATCH_SIZE as BATCH_SIZE,
  IMPORT_STATUSES,
  importTable,
  REPORT_COLUMNS,
  type ImportKind,
  type ImportRow as Row,
  type ImportStatus,
  type ParsedRecord,
} from "../csv-rows";

export { BATCH_SIZE };

const isStatus = (value: string): value is ImportStatus => (IMPORT_STATUSES as readonly string[]).includes(value);
export type ImportResult = {
  kind: ImportKind;
  rows: number;
  created: number;
  replayed: number;
  rejected: { line: number; error: string }[];
  rejectedFile: string | null;
};

export async function importFile(
  client: Client,
  file: string,
  options: { concurrency: number; progressTo: NodeJS.WriteStream },
): Promise<ImportResult> {
  const bytes = readFileSync(file);
  // The content decides the keys: the same file is the same batches, a changed file new ones.
  const fileId = createHash("sha256").update(bytes).digest("hex").slice(0, 32);
  const records = parse(bytes, CSV_OPTIONS) as unknown as ParsedRecord[];
  if (records.length === 0) throw new Error(`${file} is empty: expected a header row`);
  const { kind, header, rows, cell } = importTable(records);
  // Creating takes no status: a row's status other than the one the code gets is set by a PATCH after it.
  const status = (row: Row) => cell(row, "status") || null;
  const statusProblem = (row: Row) =>
    kind === "dynamic" && status(row) !== null && !isStatus(status(row)!)
      ? `status must be one of ${IMPORT_STATUSES.join(", ")}`
      : null;
  const keyOf = (what: string) => `qr-records-import-${fileId}-${what}`;

  /** One request; a 2xx answer's created records and whether it was the replay of an earlier run's. */
  const send = async (batch: Row[], idempotencyKey: string) => {
    const params = { header: { "Idempotency-Key": idempotencyKey } };
    const { data, error, response } =
      kind === "static"
        ? await client.api.POST("/qrcodes/batch", {
            params,
            body: { qrcodes: batch.map((row) => ({ name: cell(row, "name"), url: cell(row, "url") })) },
          })
        : await client.api.POST("/dynqrcodes/batch", {
            params,
            body: {
              dynqrcodes: batch.map((row) => ({
                name: cell(row, "name"),
                destination_url: cell(row, "destination_url"),
                ...(cell(row, "code") ? { code: cell(row, "code") } : {}),
                ...(cell(row, "domain") ? { domain: cell(row, "domain") } : {}),
              })),
            },
          });
    if (!response.ok || !data) throw apiError(response, error);
    return { created: data.created, replayed: response.headers.get("idempotent-replayed") === "true" };
  };

  /** The row's status on the code made of it (its own key: a rerun replays it). */
  const setStatus = async (row: Row, code: string) => {
    const params = { path: { code }, header: { "Idempotency-Key": keyOf(`line-${row.line}-status`) } };
    const { error, response } = await client.api.PATCH("/dynqrcodes/{code}", {
      params,
      body: { status: status(row) as ImportStatus },
    });
    if (!response.ok)
      result.rejected.push({
        line: row.line,
        error: `created, but its status was not set: ${apiError(response, error).message}`,
      });
  };

  const result: ImportResult = { kind, rows: rows.length, created: 0, replayed: 0, rejected: [], rejectedFile: null };
  const batches = Math.ceil(rows.length / BATCH_SIZE);
  const bar = progress(rows.length, options.progressTo);
  let done = 0;
  let next = 0;
  let stopped = false;

  /** A batch with invalid rows creates nothing: those rows are set aside and the rest sent again, under a key of its own. */
  async function importBatch(position: number) {
    let batch = rows.slice(position * BATCH_SIZE, (position + 1) * BATCH_SIZE);
    for (const row of batch)
      if (statusProblem(row)) result.rejected.push({ line: row.line, error: statusProblem(row)! });
    batch = batch.filter((row) => !statusProblem(row));
    for (let round = 0; batch.length > 0; round++) {
      try {
        const sent = await send(batch, keyOf(`${position}${round ? `-valid-${round}` : ""}`));
        result[sent.replayed ? "replayed" : "created"] += sent.created.length;
        for (const [i, row] of batch.entries()) {
          const made = sent.created[i] as { code?: string; status?: string };
          if (made.code && status(row) !== null && status(row) !== made.status) await setStatus(row, made.code);
        }
        break;
      } catch (error) {
        // 400: invalid rows; 409 by index: back-halves already in use. Either way, those rows are rejected.
        const refusedRows =
          error instanceof InvalidRequestError ||
          (error instanceof ApiError && error.status === 409 && error.errors.length > 0);
        if (!refusedRows) throw error;
        const bad = error.errors.length
          ? new Map(error.errors.map((e) => [e.index, e.error]))
          : new Map(batch.map((_, i) => [i, error.message]));
        for (const [index, message] of bad) result.rejected.push({ line: batch[index].line, error: message });
        batch = batch.filter((_, i) => !bad.has(i));
      }
    }
    done += Math.min(BATCH_SIZE, rows.length - position * BATCH_SIZE);
    bar.update(done, `batch ${position + 1}/${batches}, ${result.rejected.length} rejected`);
  }

  const worker = async () => {
    try {
      while (next < batches && !stopped) await importBatch(next++);
    } catch (error) {
      stopped = true; // the other workers finish their batch and stop: a rerun goes on from there
      throw error;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, batches) }, worker));
  } finally {
    bar.finish();
  }

  const rejectedFile = `${file}.rejected.csv`;
  rmSync(rejectedFile, { force: true });
  if (result.rejected.length) {
    const byLine = new Map(rows.map((r) => [r.line, r]));
    result.rejected.sort((a, b) => a.line - b.line);
    const columns = header.filter((c) => !REPORT_COLUMNS.includes(c));
    writeFileSync(
      rejectedFile,
      stringify([
        [...REPORT_COLUMNS, ...columns],
        ...result.rejected.map((r) => [r.line, r.error, ...columns.map((c) => cell(byLine.get(r.line)!, c))]),
      ]),
    );
    result.rejectedFile = rejectedFile;
  }
  return result;
}
