// qr-records import <file.csv>: rows in batches of 50, each sent with an Idempotency-Key made
// from the file's content and the batch's position, so that running the same file again after
// an interruption replays what was created and creates only the rest, never anything twice.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import type { Client } from "../client";
import type { paths } from "../schema";
import { apiError } from "../errors";
import { createInBatches, writeRejected, type Refusal } from "./batches";
import {
  CSV_OPTIONS,
  IMPORT_BATCH_SIZE as BATCH_SIZE,
  IMPORT_STATUSES,
  importTable,
  staticItemOfCells,
  REPORT_COLUMNS,
  type ImportKind,
  type ImportRow as Row,
  type ImportStatus,
  type ParsedRecord,
} from "../csv-rows";

export { BATCH_SIZE };

/** A static create item: the API refuses by name whatever the file's cells got wrong. */
type StaticItem = paths["/qrcodes/batch"]["post"]["requestBody"]["content"]["application/json"]["qrcodes"][number];

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
  const staticItem = (row: Row) => staticItemOfCells((column) => cell(row, column));
  /** What is wrong with a row before it is sent: a dynamic code's status, a cell in another type's column. */
  const rowProblem = (row: Row) =>
    kind === "static"
      ? staticItem(row).problem
      : status(row) !== null && !isStatus(status(row)!)
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
            body: { qrcodes: batch.map((row) => staticItem(row).item as StaticItem) },
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
    return response.ok
      ? null
      : { line: row.line, error: `created, but its status was not set: ${apiError(response, error).message}` };
  };

  const outcome = await createInBatches({
    rows,
    concurrency: options.concurrency,
    progressTo: options.progressTo,
    keyOf: (position, round) => keyOf(`${position}${round ? `-valid-${round}` : ""}`),
    send,
    problem: rowProblem,
    after: async (batch, sent) => {
      const refused: Refusal[] = [];
      for (const [i, row] of batch.entries()) {
        const made = sent.created[i] as { code?: string; status?: string };
        if (made.code && status(row) !== null && status(row) !== made.status) {
          const problem = await setStatus(row, made.code);
          if (problem) refused.push(problem);
        }
      }
      return refused;
    },
  });
  const result: ImportResult = { kind, rows: rows.length, ...outcome, rejectedFile: null };

  const byLine = new Map(rows.map((r) => [r.line, r]));
  const columns = header.filter((c) => !REPORT_COLUMNS.includes(c));
  result.rejectedFile = writeRejected(file, result.rejected, columns, (line) =>
    columns.map((c) => cell(byLine.get(line)!, c)),
  );
  return result;
}
