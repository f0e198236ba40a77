// The one place an export's links become our dynamic codes: the back-half kept as `code`,
// the title as the name, and what a code has no field for (tags, the clicks counted at the
// service, the creation time there, the old short link) in `metadata`. `external_id` names
// the link at its service, so that an import run again knows what it created before.
import type { RejectedRow, SourceLink } from "./common";

export type PlannedCode = {
  line: number;
  code: string;
  /** When the service made it (seconds); null when its export does not say. */
  createdAt: number | null;
  /** The create's body (POST /v1/dynqrcodes/batch item). */
  item: {
    name: string;
    destination_url: string;
    code: string;
    metadata: Record<string, string>;
    external_id: string;
    domain?: string;
  };
};
export type Plan = { codes: PlannedCode[]; rejected: RejectedRow[] };

const MAX_NAME = 200;
const MAX_VALUE = 500;
const MAX_EXTERNAL_ID = 200;

/** At most `max` characters (not UTF-16 units), an ellipsis marking a cut. */
function cut(value: string, max: number): string {
  const chars = [...value];
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join("")}…`;
}

const printable = (value: string) => value.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();

function nameOf(link: SourceLink): string {
  const title = printable(link.title);
  return cut(title || (link.host ? `${link.host}/${link.code}` : link.code), MAX_NAME);
}

function metadataOf(service: string, link: SourceLink): Record<string, string> {
  const metadata: Record<string, string> = { imported_from: service };
  if (link.host) metadata.short_url_before = cut(`https://${link.host}/${link.code}`, MAX_VALUE);
  if (link.createdAt !== null) metadata.created_at_before = new Date(link.createdAt * 1000).toISOString();
  if (link.clicks !== null) metadata.clicks_before = String(link.clicks);
  if (link.tags.length) metadata.tags = cut(printable(link.tags.join(", ")), MAX_VALUE);
  if (link.archived) metadata.archived_before = "yes";
  return metadata;
}

/**
 * The codes to create. One back-half, one code: when an export holds it twice (two of the
 * service's domains), the link on the domain moved over keeps it, else the first; the others
 * are refused, naming the line that kept it.
 */
export function planImport(service: string, rows: SourceLink[], options: { domain?: string | null }): Plan {
  const domain = options.domain?.toLowerCase() ?? null;
  const keeper = new Map<string, SourceLink>();
  for (const row of rows) {
    const kept = keeper.get(row.code);
    if (!kept || (domain !== null && row.host === domain && kept.host !== domain)) keeper.set(row.code, row);
  }
  const codes: PlannedCode[] = [];
  const rejected: RejectedRow[] = [];
  for (const row of rows) {
    const kept = keeper.get(row.code)!;
    if (kept !== row) {
      const same = kept.line === row.line ? "" : ` (line ${kept.line})`;
      rejected.push({
        line: row.line,
        error: `back-half ${row.code} is kept by ${kept.host ?? "another link"}/${row.code}${same}: one code per back-half`,
        cells: row.cells,
      });
      continue;
    }
    const externalId = `${service}:${row.host ?? ""}/${row.code}`;
    codes.push({
      line: row.line,
      code: row.code,
      createdAt: row.createdAt,
      item: {
        name: nameOf(row),
        destination_url: row.destination,
        code: row.code,
        metadata: metadataOf(service, row),
        external_id: [...externalId].length <= MAX_EXTERNAL_ID ? externalId : `${service}:/${row.code}`,
        ...(domain ? { domain } : {}),
      },
    });
  }
  return { codes, rejected };
}
