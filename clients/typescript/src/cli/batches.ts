// `qr-records import`'s rows created in batches of the API's size: each batch
// under an Idempotency-Key of its own (a rerun replays what was created, creates only the
// rest), a few in flight at once, rows the API refuses set aside with its message and the
// rest of their batch sent again under a key of its own.
import { rmSync, writeFileSync } from "node:fs";
import { stringify } from "csv-stringify/sync";
import { ApiError, InvalidRequestError } from "../errors";
import { IMPORT_BATCH_SIZE as BATCH_SIZE, REPORT_COLUMNS } from "../csv-rows";
import { progress } from "./progress";

export type Refusal = { line: number; error: string };
export type Sent = { created: unknown[]; replayed: boolean };

export type BatchJob<Row extends { line: number }> = {
  rows: Row[];
  concurrency: number;
  progressTo: NodeJS.WriteStream;
  /** The key of a batch's `round`th attempt (0: the batch as the file has it). */
  keyOf: (position: number, round: number) => string;
  send: (batch: Row[], idempotencyKey: string) => Promise<Sent>;
  /** A row refused before sending, or null. */
  problem?: (row: Row) => string | null;
  /** After a batch's creation: what else its rows need (refusals it returns are reported). */
  after?: (batch: Row[], sent: Sent) => Promise<Refusal[]>;
};

export type BatchResult = { created: number; replayed: number; rejected: Refusal[] };

export async function createInBatches<Row extends { line: number }>(job: BatchJob<Row>): Promise<BatchResult> {
  const { rows } = job;
  const result: BatchResult = { created: 0, replayed: 0, rejected: [] };
  const batches = Math.ceil(rows.length / BATCH_SIZE);
  const bar = progress(rows.length, job.progressTo);
  let done = 0;
  let next = 0;
  let stopped = false;

  /** A batch with refused rows creates nothing: those rows are set aside and the rest sent again. */
  async function importBatch(position: number) {
    let batch = rows.slice(position * BATCH_SIZE, (position + 1) * BATCH_SIZE);
    const problems = new Map(batch.map((row) => [row, job.problem?.(row) ?? null]));
    for (const [row, error] of problems) if (error) result.rejected.push({ line: row.line, error });
    batch = batch.filter((row) => !problems.get(row));
    for (let round = 0; batch.length > 0; round++) {
      try {
        const sent = await job.send(batch, job.keyOf(position, round));
        result[sent.replayed ? "replayed" : "created"] += sent.created.length;
        if (job.after) result.rejected.push(...(await job.after(batch, sent)));
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
    await Promise.all(Array.from({ length: Math.min(job.concurrency, batches) }, worker));
  } finally {
    bar.finish();
  }
  result.rejected.sort((a, b) => a.line - b.line);
  return result;
}

/**
 * `<file>.rejected.csv`: line, error, then the row's own cells (`import` ignores the first two,
 * so that the report, once fixed, can be imported itself); removed when nothing was rejected.
 * Its path, or null.
 */
export function writeRejected(
  file: string,
  rejected: Refusal[],
  columns: string[],
  cellsOf: (line: number) => string[],
): string | null {
  const rejectedFile = `${file}.rejected.csv`;
  rmSync(rejectedFile, { force: true });
  if (rejected.length === 0) return null;
  writeFileSync(
    rejectedFile,
    stringify([[...REPORT_COLUMNS, ...columns], ...rejected.map((r) => [r.line, r.error, ...cellsOf(r.line)])]),
  );
  return rejectedFile;
}
