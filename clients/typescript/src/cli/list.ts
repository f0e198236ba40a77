// qr-records list static|dynamic [--search TEXT] [--status S] [--sort S] [--created-after T] [--created-before T]:
// the library's codes the filters keep, one line each (tab-separated), or the records as JSON lines.
import type { Client, DynamicListOptions, StaticListOptions } from "../client";

export type ListWhat = "static" | "dynamic";
export type ListOptions = {
  search?: string;
  status?: string;
  sort?: string;
  createdAfter?: string;
  createdBefore?: string;
  /** At most this many codes (default: every one). */
  max?: number;
  json?: boolean;
};

/** An epoch-seconds option: the server checks it; a date like 2026-11-01 is turned into its UTC midnight. */
const epochSeconds = (text: string | undefined) =>
  text === undefined ? undefined : /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) / 1000 : text;

/** Writes each code as it is read; returns how many were written. */
export async function listCodes(
  client: Client,
  what: ListWhat,
  options: ListOptions,
  write: (line: string) => void,
): Promise<number> {
  const filters = {
    search: options.search,
    sort: options.sort,
    created_after: epochSeconds(options.createdAfter),
    created_before: epochSeconds(options.createdBefore),
  } as StaticListOptions;
  const codes =
    what === "static"
      ? client.staticCodes(filters)
      : client.dynamicCodes({ ...filters, status: options.status } as DynamicListOptions);
  let written = 0;
  for await (const code of codes) {
    if (options.max !== undefined && written >= options.max) break;
    if (options.json) write(JSON.stringify(code));
    else if ("code" in code) write([code.code, code.status, code.name, code.destination_url].join("\t"));
    else write([code.qr_id, code.name, code.url].join("\t"));
    written++;
  }
  return written;
}
