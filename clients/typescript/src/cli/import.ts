// qr-records import <file.csv>: rows in batches of 50, each sent with an Idempotency-Key made
// from the file's content and the batch's position, so that running the same file again after
// an interruption replays what was created and creates only the rest, never anything twice.
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import type { Client } from "../client";
import { apiError, InvalidRequestError } from "../errors";
import { progress } from "./progress";

/** The API's batch limit. */
export const BATCH_SIZE = 50;

const COLUMNS = { static: ["name", "url"], dynamic: ["name", "destination_url", "status"] } as const;
const STATUSES = ["active", "paused", "draft"] as const;
type Status = (typeof STATUSES)[number];
const isStatus = (value: string): value is Status => (STATUSES as readonly string[]).includes(value);
type Kind = keyof typeof COLUMNS;
/** The columns the rejected-rows report adds: ignored, so that the report, once fixed, can be imported itself. */
const REPORT_COLUMNS = ["line", "error"];
type Row = { line: number; cells: string[] };
export type ImportResult = { kind: Kind; rows: number; created: number; replayed: number; rejected: { line: number; error: string }[]; rejectedFile: string | null };

/** static when the header has `url`, dynamic when it has `destination_url`; other columns are refused. */
function kindOf(header: string[]): Kind {
  const kind: Kind | null = header.includes("url") ? "static" : header.includes("destination_url") ? "dynamic" : null;
  if (!kind || !header.includes("name")) throw new Error("The header must be name,url (static codes) or name,destination_url[,status] (dynamic codes)");
  const unknown = header.filter((c) => !(COLUMNS[kind] as readonly string[]).includes(c) && !REPORT_COLUMNS.includes(c));
  if (unknown.length) throw new Error(`Unknown column${unknown.length > 1 ? "s" : ""} for ${kind} codes: ${unknown.join(", ")} (expected ${COLUMNS[kind].join(",")})`);
  if (new Set(header).size !== header.length) throw new Error("A column appears twice in the header");
  return kind;
}

export async function importFile(client: Client, file: string, options: { concurrency: number; progressTo: NodeJS.WriteStream }): Promise<ImportResult> {
  const bytes = readFileSync(file);
  // The content decides the keys: the same file is the same batches, a changed file new ones.
  const fileId = createHash("sha256").update(bytes).digest("hex").slice(0, 32);
  const records = parse(bytes, { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
  if (records.length === 0) throw new Error(`${file} is empty: expected a header row`);
  const header = records[0].record.map((c) => c.trim().toLowerCase());
  const kind = kindOf(header);
  const rows: Row[] = records.slice(1).map(({ record, info }) => ({ line: info.lines, cells: record }));
  const cell = (row: Row, column: string) => row.cells[header.indexOf(column)]?.trim() ?? "";
  // Creating takes no status: a row's status other than the one the code gets is set by a PATCH after it.
  const status = (row: Row) => cell(row, "status") || null;
  const statusProblem = (row: Row) => (kind === "dynamic" && status(row) !== null && !isStatus(status(row)!) ? `status must be one of ${STATUSES.join(", ")}` : null);
  const keyOf = (what: string) => `qr-records-import-${fileId}-${what}`;

  /** One request; a 2xx answer's created records and whether it was the replay of an earlier run's. */
  const send = async (batch: Row[], idempotencyKey: string) => {
    const params = { header: { "Idempotency-Key": idempotencyKey } };
    const { data, error, response } =
      kind === "static"
        ? await client.api.POST("/qrcodes/batch", { params, body: { qrcodes: batch.map((row) => ({ name: cell(row, "name"), url: cell(row, "url") })) } })
        : await client.api.POST("/dynqrcodes/batch", { params, body: { dynqrcodes: batch.map((row) => ({ name: cell(row, "name"), destination_url: cell(row, "destination_url") })) } });
    if (!response.ok || !data) throw apiError(response, error);
    return { created: data.created, replayed: response.headers.get("idempotent-replayed") === "true" };
  };

  /** The row's status on the code made of it (its own key: a rerun replays it). */
  const setStatus = async (row: Row, code: string) => {
    const params = { path: { code }, header: { "Idempotency-Key": keyOf(`line-${row.line}-status`) } };
    const { error, response } = await client.api.PATCH("/dynqrcodes/{code}", { params, body: { status: status(row) as Status } });
    if (!response.ok) result.rejected.push({ line: row.line, error: `created, but its status was not set: ${apiError(response, error).message}` });
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
    for (const row of batch) if (statusProblem(row)) result.rejected.push({ line: row.line, error: statusProblem(row)! });
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
        if (!(error instanceof InvalidRequestError)) throw error;
        const bad = error.errors.length ? new Map(error.errors.map((e) => [e.index, e.error])) : new Map(batch.map((_, i) => [i, error.message]));
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
    writeFileSync(rejectedFile, stringify([[...REPORT_COLUMNS, ...columns], ...result.rejected.map((r) => [r.line, r.error, ...columns.map((c) => cell(byLine.get(r.line)!, c))])]));
    result.rejectedFile = rejectedFile;
  }
  return result;
}
