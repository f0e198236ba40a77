// The import file's rules, shared by `qr-records import` and the library pages' import (which
// imports this file from the browser): its columns, the kind its header names, and its rows
// with the line each ends on. Parsing itself is csv-parse's, with CSV_OPTIONS (Node's build in
// the command line, the browser build on the pages).

/** Rows per created batch: the API's batch limit. */
export const IMPORT_BATCH_SIZE = 50;
/** Rows per call of the pages' check (a file of any size is checked in calls of this many). */
export const IMPORT_CHECK_SIZE = 1000;

export const IMPORT_COLUMNS = {
  static: ["name", "url"],
  dynamic: ["name", "destination_url", "status", "code", "domain"],
} as const;
export const IMPORT_STATUSES = ["active", "paused", "draft"] as const;
export type ImportKind = keyof typeof IMPORT_COLUMNS;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
/** The columns the command line's rejected-rows report adds: ignored, so that the report, once fixed, can be imported itself. */
export const REPORT_COLUMNS = ["line", "error"];
/** csv-parse's options: a byte-order mark and blank lines allowed; `info` gives each record's last line. */
export const CSV_OPTIONS = { bom: true, relax_column_count: true, skip_empty_lines: true, info: true } as const;
export type ParsedRecord = { record: string[]; info: { lines: number } };
export type ImportRow = { line: number; cells: string[] };

/** static when the header has `url`, dynamic when it has `destination_url`; other columns are refused. */
export function importKindOf(header: string[]): ImportKind {
  const kind: ImportKind | null = header.includes("url")
    ? "static"
    : header.includes("destination_url")
      ? "dynamic"
      : null;
  if (!kind || !header.includes("name"))
    throw new Error(
      "The header must be name,url (static codes) or name,destination_url[,status][,code][,domain] (dynamic codes)",
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
