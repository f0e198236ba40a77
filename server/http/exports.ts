// The library's CSV exports: GET /v1/qrcodes/export and /v1/dynqrcodes/export, and the pages'
// download of the same files (/library/export/<file>), from one table of the domain's rows.
import type { Library } from "../library/library";
import { DYNAMIC_EXPORT_COLUMNS, dynamicExportRows } from "../library/dynamicExport";
import { STATIC_EXPORT_COLUMNS, staticExportRows } from "../library/staticCodes";
import { csvAnswer, type Answer } from "./answer";

const LIBRARY_EXPORTS = {
  qrcodes: { columns: STATIC_EXPORT_COLUMNS, rows: staticExportRows },
  dynqrcodes: { columns: DYNAMIC_EXPORT_COLUMNS, rows: dynamicExportRows },
} as const;

export type LibraryExport = keyof typeof LIBRARY_EXPORTS;

export const isLibraryExport = (name: string): name is LibraryExport => Object.hasOwn(LIBRARY_EXPORTS, name);

/** Every code of one kind in the library as CSV (static codes: `qrcodes`, dynamic: `dynqrcodes`). */
export function libraryExportAnswer(name: LibraryExport, library: Library): Answer {
  const { columns, rows } = LIBRARY_EXPORTS[name];
  return csvAnswer(name, columns, rows(library));
}
