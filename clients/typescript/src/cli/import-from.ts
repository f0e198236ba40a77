// qr-records import-from <service> <file>: another service's export (docs/IMPORTERS.md) read
// by its reader, each link made a dynamic code keeping its back-half (on --domain when the
// team moved its domain over), sent as one bundle (POST /v1/bundle, docs/BUNDLE.md): all or
// nothing, and idempotent of itself, so running it again creates nothing twice. Lines the
// bundle is refused for (a back-half taken here, a destination the API refuses) are set aside,
// each as its row of the export, and the rest sent again. Refused rows: <file>.rejected.csv.
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import type { Client } from "../client";
import { apiError } from "../errors";
import { CSV_OPTIONS, type ParsedRecord } from "../csv-rows";
import { planImport, SERVICES, type PlannedCode, type RejectedRow, type ServiceName } from "../import-from";
import { bundleOf } from "../import-from/bundle";
import { writeRejected, type Refusal } from "./batches";

export type ImportFromResult = {
  links: number;
  created: number;
  existing: number;
  rejected: Refusal[];
  rejectedFile: string | null;
};

const readCsv = (text: string) => parse(text, CSV_OPTIONS) as unknown as ParsedRecord[];

/** A refused bundle's problems by line: `{"errors": [{"line", "error"}]}` (400 or 409). */
const lineErrors = (body: unknown): { line: number; error: string }[] => {
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) ? errors.filter((e) => Number.isInteger(e?.line) && typeof e?.error === "string") : [];
};

/** The codes as bundles until one is taken: each refused line's code set aside. */
async function sendBundle(client: Client, codes: PlannedCode[], say: (text: string) => void) {
  const rejected: Refusal[] = [];
  for (let pending = codes; pending.length > 0;) {
    const bundle = bundleOf(pending);
    say(`sending ${pending.length} links as one bundle…\n`);
    const { data, error, response } = await client.api.POST("/bundle", {
      body: bundle.text,
      bodySerializer: (text: string) => text,
      headers: { "Content-Type": "application/x-ndjson" },
    });
    if (response.ok && data)
      return { created: data.created?.dynamic ?? 0, existing: data.skipped?.dynamic ?? 0, rejected };
    const problems = lineErrors(error);
    if (![400, 409].includes(response.status) || problems.length === 0) throw apiError(response, error);
    const refused = new Set<PlannedCode>();
    for (const { line, error: message } of problems) {
      const code = bundle.codeAt[line];
      // A line that is no link's (the head, a domain): the bundle as a whole is refused.
      if (!code) throw new Error(`The import was refused: ${message}`);
      refused.add(code);
      rejected.push({ line: code.line, error: message });
    }
    pending = pending.filter((code) => !refused.has(code));
  }
  return { created: 0, existing: 0, rejected };
}

export async function importFrom(
  client: Client,
  service: ServiceName,
  file: string,
  options: { domain: string | null; say: (text: string) => void },
): Promise<ImportFromResult> {
  const parsed = SERVICES[service].read(new TextDecoder().decode(readFileSync(file)), readCsv);
  const plan = planImport(service, parsed.rows, { domain: options.domain });
  const sent = await sendBundle(client, plan.codes, options.say);

  const rejected: RejectedRow[] = [...parsed.rejected, ...plan.rejected];
  const cellsByLine = new Map([...parsed.rows, ...rejected].map((r) => [r.line, r.cells]));
  const all = [...rejected.map(({ line, error }) => ({ line, error })), ...sent.rejected].sort(
    (a, b) => a.line - b.line,
  );
  const columns = [...new Set(all.flatMap((r) => Object.keys(cellsByLine.get(r.line) ?? {})))];
  const rejectedFile = writeRejected(file, all, columns, (line) =>
    columns.map((c) => cellsByLine.get(line)?.[c] ?? ""),
  );
  return {
    links: parsed.rows.length + parsed.rejected.length,
    created: sent.created,
    existing: sent.existing,
    rejected: all,
    rejectedFile,
  };
}

export const IMPORT_FROM_HELP = `Usage: qr-records import-from <service> <file> [--domain DOMAIN] [--concurrency N]

Moves the links of another service's export into the library as dynamic codes, each keeping
its back-half as its code, its destination, and its title as the name. The file is the export
the service gives you (docs/IMPORTERS.md):
${Object.entries(SERVICES)
  .map(([name, s]) => `  ${name.padEnd(10)} ${s.export}`)
  .join("\n")}
Tags, the clicks counted there, the creation time there and the old short link are kept in
each code's metadata (no export holds the click history itself).

The links go as one bundle (POST /v1/bundle): each code keeps the link's creation time there.
A back-half the library or another link of the file already holds, a destination that is not
an http(s) URL, or a back-half other than 1 to 64 of 0-9 A-Z a-z _ - is refused: those rows
are written, with their line (a JSON file: the link's position in it) and the reason, to
<file>.rejected.csv, and the others imported. Running it again (the same file, or a new export
of the same links) creates nothing twice: what an earlier run made is counted, not created.

Options:
  --domain DOMAIN   the verified domain you moved over from the service: the codes answer at
                    https://DOMAIN/<back-half>, as they did there
  -h, --help        this help

Exit status: 0 every link imported, 2 some rows rejected, 1 the import stopped (run it again).`;
