// qr-records get <id> and qr-records update-many <file.csv>: one record as JSON, and a file of
// changes sent in batches of 50 (each batch all or nothing, with an Idempotency-Key made from the
// file's content and the batch's position, so that running the file again changes nothing twice).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import type { Client } from "../client";
import { ApiError } from "../errors";
import { CSV_OPTIONS, IMPORT_BATCH_SIZE as BATCH_SIZE, type ParsedRecord } from "../csv-rows";
import { isStaticId, type DynamicChange, type StaticChange } from "../records";

export const RECORDS_HELP = {
  get: `Usage: qr-records get <qr_id|code>

Prints one code's record as JSON: a static code by its qr_id (qr_…), a dynamic code by its code.

Options:
  -h, --help    this help`,
  "update-many": `Usage: qr-records update-many <file.csv>

Changes the codes the file names, in batches of ${BATCH_SIZE} (each batch all or nothing). The header
has a code column (qr_id values for static codes, codes for dynamic ones: one kind per file) and
the columns to change:
  static codes                          url, name, metadata, external_id
  dynamic codes                         destination_url, name, status, expired_url, metadata, external_id
An empty cell leaves the field as it is; null clears metadata, external_id or expired_url;
metadata is a JSON object such as {"order":"4711"}. Running the same file again changes nothing twice.

Options:
  -h, --help    this help

Exit status: 0 every row changed, 2 some batches refused (their rows are listed), 1 stopped.`,
};

const COLUMNS = {
  static: ["url", "name", "metadata", "external_id"],
  dynamic: ["destination_url", "name", "status", "expired_url", "metadata", "external_id"],
} as const;
const CLEARABLE = new Set(["metadata", "external_id", "expired_url"]);

export const getRecord = async (client: Client, id: string) => JSON.stringify(await client.get(id), null, 2);

export type UpdateResult = { rows: number; updated: number; held: number; refused: { line: number; error: string }[] };

/** The file's rows as changes, each with its line; a header or cell the API would never take is refused first. */
function changesOf(records: ParsedRecord[]) {
  if (records.length < 2) throw new Error("The file needs a header row and at least one row of changes");
  const header = records[0].record.map((c) => c.trim().toLowerCase());
  if (!header.includes("code")) throw new Error("The header needs a code column");
  const rows = records.slice(1).map(({ record, info }) => ({ line: info.lines, cells: record.map((c) => c.trim()) }));
  const codes = rows.map((row) => row.cells[header.indexOf("code")] ?? "");
  const kind = codes.every(isStaticId) ? "static" : codes.some(isStaticId) ? null : "dynamic";
  if (!kind) throw new Error("One kind of code per file: qr_id values (static) or codes (dynamic), not both");
  const allowed: readonly string[] = COLUMNS[kind];
  const unknown = header.filter((c) => c !== "code" && !allowed.includes(c));
  if (unknown.length) throw new Error(`Unknown columns for ${kind} codes: ${unknown.join(", ")}`);
  const changes = rows.map((row, i) => {
    const change: Record<string, unknown> = { [kind === "static" ? "qr_id" : "code"]: codes[i] };
    header.forEach((column, c) => {
      const cell = row.cells[c] ?? "";
      if (column === "code" || cell === "") return;
      if (cell === "null" && CLEARABLE.has(column)) change[column] = null;
      else if (column === "metadata") {
        try {
          change.metadata = JSON.parse(cell);
        } catch {
          throw new Error(`line ${row.line}: metadata must be a JSON object such as {"order":"4711"}`);
        }
      } else change[column] = cell;
    });
    return { line: row.line, change };
  });
  return { kind, changes };
}

export async function updateMany(client: Client, file: string): Promise<UpdateResult> {
  const bytes = readFileSync(file);
  const { kind, changes } = changesOf(parse(bytes, CSV_OPTIONS) as unknown as ParsedRecord[]);
  const digest = createHash("sha256").update(bytes).digest("hex").slice(0, 32);
  const result: UpdateResult = { rows: changes.length, updated: 0, held: 0, refused: [] };
  for (let start = 0; start < changes.length; start += BATCH_SIZE) {
    const batch = changes.slice(start, start + BATCH_SIZE);
    const key = `update-many-${digest}-${start / BATCH_SIZE}`;
    try {
      const updated =
        kind === "static"
          ? await client.updateMany.static(
              batch.map((b) => b.change as StaticChange),
              key,
            )
          : await client.updateMany.dynamic(
              batch.map((b) => b.change as DynamicChange),
              key,
            );
      result.updated += updated.length;
      result.held += updated.filter((r) => "pending_change" in r && r.pending_change !== null).length;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500 || error.status === 429) throw error;
      // The batch changed nothing: its refused rows by line, or the whole batch's reason on its first.
      const items = error.errors.length ? error.errors : [{ index: 0, error: error.message }];
      for (const item of items) result.refused.push({ line: batch[item.index].line, error: item.error });
    }
  }
  return result;
}
