// What every service's reader shares (docs/IMPORTERS.md): a link as read from an export, a
// refused row with the reason, and the checks and date readings the six formats need. Pure:
// text in, rows out; CSV parsing is handed in (csv-parse's Node build in the command line, its
// browser build on the pages).

/** One link of an export, as the service had it. */
export type SourceLink = {
  /** CSV: the line the row ends on; JSON: the link's position in the file, from 1. */
  line: number;
  /** The back-half: the path of the short link, kept as the code. */
  code: string;
  /** The short link's host at the service (bit.ly, go.example.com), when the export says. */
  host: string | null;
  destination: string;
  title: string;
  /** Seconds since the epoch; null when the export has none or an unreadable one. */
  createdAt: number | null;
  tags: string[];
  /** Total clicks at the service, when the export holds them (no export holds their history). */
  clicks: number | null;
  archived: boolean;
  /** The row as the file had it, for the rejected-rows report. */
  cells: Record<string, string>;
};
export type RejectedRow = { line: number; error: string; cells: Record<string, string> };
export type Parsed = { rows: SourceLink[]; rejected: RejectedRow[] };
/** A CSV parser's records with the line each ends on (csv-parse with `info`). */
export type CsvRecord = { record: string[]; info: { lines: number } };
export type ReadCsv = (text: string) => CsvRecord[];
export type Reader = (text: string, readCsv: ReadCsv) => Parsed;

/** The back-halves this service keeps: as `code` on a create (server/library/backHalf.ts). */
export const BACK_HALF = /^[0-9A-Za-z_-]{1,64}$/;

/** A link's fields as a service names them, before any check. */
export type LinkFields = {
  shortUrl?: string;
  code?: string;
  host?: string;
  destination?: string;
  title?: string;
  created?: string | number | null;
  tags?: string[];
  clicks?: string | number | null;
  archived?: boolean;
};

const text = (value: unknown) => (value === undefined || value === null ? "" : String(value).trim());

/** The host and back-half of a short link such as https://bit.ly/abc or go.example.com/abc. */
export function splitShortUrl(shortUrl: string): { host: string; code: string } | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(shortUrl) ? shortUrl : `https://${shortUrl}`;
  try {
    const url = new URL(withScheme);
    return { host: url.hostname.toLowerCase(), code: decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, "")) };
  } catch {
    return null;
  }
}

/**
 * Seconds since the epoch from the forms the exports use: ISO 8601 with Z, ±HH:MM or Bitly's
 * ±HHMM; "YYYY-MM-DD HH:MM:SS" (YOURLS, Kutt on SQLite: UTC); epoch seconds or milliseconds.
 * MySQL's zero date and anything else unreadable: null.
 */
export function instant(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? Math.floor(value > 1e11 ? value / 1000 : value) : null;
  const raw = text(value);
  if (raw === "" || raw.startsWith("0000-00-00")) return null;
  if (/^\d{9,13}$/.test(raw)) return instant(Number(raw));
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(
    raw,
  );
  if (!m) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", zone = "Z"] = m;
  const offset = zone.toUpperCase() === "Z" ? "Z" : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  // Date.parse rolls 2026-02-31 over to March: a date that is not on the calendar is unreadable.
  if (Number.isNaN(ms) || new Date(`${y}-${mo}-${d}T00:00:00Z`).getUTCDate() !== Number(d)) return null;
  return Math.floor(ms / 1000);
}

function count(value: unknown): number | null {
  const raw = text(value).replace(/[,\s]/g, ""); // "1,234" as some exports write thousands
  return /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

/** The row as a link, or the reason it cannot be kept. */
export function linkOf(line: number, cells: Record<string, string>, f: LinkFields): SourceLink | RejectedRow {
  const reject = (error: string): RejectedRow => ({ line, error, cells });
  const fromUrl = f.shortUrl ? splitShortUrl(text(f.shortUrl)) : null;
  const code = text(f.code) || fromUrl?.code || "";
  const host = text(f.host).toLowerCase() || fromUrl?.host || null;
  if (code === "") return reject("no back-half (short link) in the row");
  if (!BACK_HALF.test(code))
    return reject(`back-half "${code.slice(0, 80)}" cannot be kept: 1 to 64 of 0-9 A-Z a-z _ - only`);
  const destination = text(f.destination);
  if (destination === "") return reject("no destination URL");
  if (!/^https?:\/\/[^\s/?#]+/i.test(destination))
    return reject(`destination is not an http(s) URL: ${destination.slice(0, 80)}`);
  return {
    line,
    code,
    host,
    destination,
    title: text(f.title),
    createdAt: instant(f.created),
    tags: (f.tags ?? []).map((t) => t.trim()).filter(Boolean),
    clicks: count(f.clicks),
    archived: f.archived ?? false,
    cells,
  };
}

export const isRejected = (row: SourceLink | RejectedRow): row is RejectedRow => "error" in row;

/** Rows read one by one into the two lists. */
export function collect(items: (SourceLink | RejectedRow)[]): Parsed {
  const parsed: Parsed = { rows: [], rejected: [] };
  for (const item of items) {
    if (isRejected(item)) parsed.rejected.push(item);
    else parsed.rows.push(item);
  }
  return parsed;
}

/** A CSV export as rows of named cells (header names compared without case); missing columns throw. */
export function csvRows(raw: string, readCsv: ReadCsv, service: string, required: string[]) {
  const records = readCsv(raw);
  if (records.length === 0) throw new Error(`The file is empty: expected ${service}'s CSV export with a header row`);
  const header = records[0].record.map((c) => c.trim());
  const lower = header.map((c) => c.toLowerCase());
  const missing = required.filter((c) => !lower.includes(c.toLowerCase()));
  if (missing.length)
    throw new Error(
      `Not ${service}'s CSV export: the header lacks ${missing.join(", ")} (it has ${header.join(", ")})`,
    );
  return records.slice(1).map(({ record, info }) => {
    const cells: Record<string, string> = {};
    header.forEach((name, i) => (cells[name] = record[i] ?? ""));
    const cell = (name: string) => record[lower.indexOf(name.toLowerCase())]?.trim() ?? "";
    return { line: info.lines, cells, cell };
  });
}

/** A JSON export's text as a value; not JSON throws a message naming the service. */
export function jsonOf(raw: string, service: string): unknown {
  try {
    return JSON.parse(raw.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new Error(`Not ${service}'s JSON export: ${(error as Error).message}`);
  }
}

/** A JSON item's top-level fields as report cells (objects as JSON). */
export function cellsOf(item: unknown): Record<string, string> {
  if (typeof item !== "object" || item === null) return { value: JSON.stringify(item) ?? "" };
  return Object.fromEntries(
    Object.entries(item).map(([k, v]) => [k, typeof v === "object" && v !== null ? JSON.stringify(v) : text(v)]),
  );
}

/** Items of a listing: pages of `{<key>: [...]}` (one, or an array of them, as `jq -s` gives) or the items themselves. */
export function itemsOf(value: unknown, key: string, service: string): unknown[] {
  const pages = Array.isArray(value) ? value : [value];
  const isPage = (v: unknown) =>
    typeof v === "object" && v !== null && Array.isArray((v as Record<string, unknown>)[key]);
  if (pages.length > 0 && pages.every(isPage)) return pages.flatMap((p) => (p as Record<string, unknown[]>)[key]);
  if (Array.isArray(value)) return value;
  throw new Error(`Not ${service}'s JSON export: expected a list of links or pages with "${key}"`);
}

export const field = (item: unknown, name: string): unknown =>
  typeof item === "object" && item !== null ? (item as Record<string, unknown>)[name] : undefined;
