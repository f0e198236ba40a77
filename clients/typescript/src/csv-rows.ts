// The import file's rules, shared by `qr-records import` and the library pages' import (which
// imports this file from the browser): its columns, the kind its header names, and its rows
// with the line each ends on. Parsing itself is csv-parse's, with CSV_OPTIONS (Node's build in
// the command line, the browser build on the pages).

/** Rows per created batch: the API's batch limit. */
export const IMPORT_BATCH_SIZE = 50;
/** Rows per call of the pages' check (a file of any size is checked in calls of this many). */
export const IMPORT_CHECK_SIZE = 1000;

/**
 * A static code's content columns (docs/TYPES.md, "CSV import"): `<type>_<field>`, one per field
 * of the type's `content`. A list (a vCard's phones, emails) is one cell, its items separated by `;`.
 */
export const CONTENT_COLUMNS = {
  text: ["text_text"],
  email: ["email_to", "email_subject", "email_body"],
  phone: ["phone_number"],
  sms: ["sms_number", "sms_body"],
  wifi: ["wifi_ssid", "wifi_password", "wifi_encryption", "wifi_hidden"],
  vcard: [
    "vcard_first_name",
    "vcard_last_name",
    "vcard_organization",
    "vcard_title",
    "vcard_phones",
    "vcard_emails",
    "vcard_url",
    "vcard_address",
    "vcard_note",
  ],
  geo: ["geo_latitude", "geo_longitude"],
  event: ["event_title", "event_start", "event_end", "event_location", "event_description"],
} as const;
const ALL_CONTENT_COLUMNS = Object.values(CONTENT_COLUMNS).flat();
/** The static columns beside name and url: what the pages send of a row as its `cells`. */
export const TYPED_COLUMNS = ["type", ...ALL_CONTENT_COLUMNS];
const LIST_COLUMNS = ["vcard_phones", "vcard_emails"];
const NUMBER_COLUMNS = ["geo_latitude", "geo_longitude"];
const BOOLEAN_COLUMNS = ["wifi_hidden"];

export const IMPORT_COLUMNS = {
  static: ["name", "url", "type", ...ALL_CONTENT_COLUMNS],
  dynamic: ["name", "destination_url", "status", "code", "domain"],
} as const;

/** A cell as its field's JSON value: numbers, booleans and `;` lists converted; anything else left for the API to refuse by name. */
function fieldValue(column: string, cell: string): unknown {
  if (LIST_COLUMNS.includes(column))
    return cell
      .split(";")
      .map((item) => item.trim())
      .filter(Boolean);
  if (NUMBER_COLUMNS.includes(column) && /^[+-]?\d+(\.\d+)?$/.test(cell)) return Number(cell);
  if (BOOLEAN_COLUMNS.includes(column) && /^(true|false)$/i.test(cell)) return cell.toLowerCase() === "true";
  return cell;
}

/**
 * A static row as the API's create item: `{name, url}` for a URL (no `type` cell, or `url`), else
 * `{name, type, content}` from the type's columns; or the problem of a cell in another type's column.
 * `cell(column)` is the trimmed cell, "" when the column is missing.
 */
export function staticItemOfCells(cell: (column: string) => string): {
  item: { name: string; type?: string; url?: string; content?: Record<string, unknown> };
  problem: string | null;
} {
  const name = cell("name");
  const type = cell("type") || "url";
  const own: readonly string[] = (CONTENT_COLUMNS as Record<string, readonly string[]>)[type] ?? [];
  const stray = ALL_CONTENT_COLUMNS.find((column) => cell(column) !== "" && !own.includes(column));
  const problem = stray ? `${stray} is only for type ${stray.slice(0, stray.indexOf("_"))}` : null;
  if (type === "url") return { item: { name, url: cell("url") }, problem };
  const content = Object.fromEntries(
    own
      .filter((column) => cell(column) !== "")
      .map((column) => [column.slice(type.length + 1), fieldValue(column, cell(column))]),
  );
  return { item: { name, type, ...(cell("url") ? { url: cell("url") } : {}), content }, problem };
}
export const IMPORT_STATUSES = ["active", "paused", "draft"] as const;
export type ImportKind = keyof typeof IMPORT_COLUMNS;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
/** The columns the command line's rejected-rows report adds: ignored, so that the report, once fixed, can be imported itself. */
export const REPORT_COLUMNS = ["line", "error"];
/** csv-parse's options: a byte-order mark and blank lines allowed; `info` gives each record's last line. */
export const CSV_OPTIONS = { bom: true, relax_column_count: true, skip_empty_lines: true, info: true } as const;
export type ParsedRecord = { record: string[]; info: { lines: number } };
export type ImportRow = { line: number; cells: string[] };

/** static when the header has `url` or `type`, dynamic when it has `destination_url`; other columns are refused. */
export function importKindOf(header: string[]): ImportKind {
  const kind: ImportKind | null =
    header.includes("url") || header.includes("type")
      ? "static"
      : header.includes("destination_url")
        ? "dynamic"
        : null;
  if (!kind || !header.includes("name"))
    throw new Error(
      "The header must be name,url[,type,<type>_<field>...] (static codes) or name,destination_url[,status][,code][,domain] (dynamic codes)",
    );
  const unknown = header.filter(
    (c) => !(IMPORT_COLUMNS[kind] as readonly string[]).includes(c) && !REPORT_COLUMNS.includes(c),
  );
  if (unknown.length)
    throw new Error(
      `Unknown column${unknown.length > 1 ? "s" : ""} for ${kind} codes: ${unknown.join(", ")} (expected ${IMPORT_COLUMNS[kind].join(",")})`,
    );
  if (new Set(header).size !== header.length) throw new Error("A column appears twice in the header");
  return kind;
}

/** The parsed file as a table: its kind, header, rows (each with its line number) and a cell reader. */
export function importTable(records: ParsedRecord[]) {
  if (records.length === 0) throw new Error("The file is empty: expected a header row");
  const header = records[0].record.map((c) => c.trim().toLowerCase());
  const kind = importKindOf(header);
  const rows: ImportRow[] = records.slice(1).map(({ record, info }) => ({ line: info.lines, cells: record }));
  const cell = (row: ImportRow, column: string) => row.cells[header.indexOf(column)]?.trim() ?? "";
  return { kind, header, rows, cell };
}
