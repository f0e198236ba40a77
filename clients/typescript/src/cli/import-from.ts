// qr-records import-from <service> <file>: another service's export (docs/IMPORTERS.md) read
// by its reader, each link made a dynamic code keeping its back-half (on --domain when the
// team moved its domain over), in batches as `import` sends them. Resumable twice over: each
// batch's Idempotency-Key is made of the file's content and the batch's position, and a
// back-half already held by a code this import made before (its external_id names the link at
// the service) is counted as there, not refused. Refused rows go to <file>.rejected.csv.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import type { Client } from "../client";
import { apiError } from "../errors";
import { CSV_OPTIONS, type ParsedRecord } from "../csv-rows";
import { planImport, SERVICES, type PlannedCode, type RejectedRow, type ServiceName } from "../import-from";
import { createInBatches, writeRejected } from "./batches";

export type ImportFromResult = {
  links: number;
  created: number;
  replayed: number;
  existing: number;
  rejected: { line: number; error: string }[];
  rejectedFile: string | null;
};

const readCsv = (text: string) => parse(text, CSV_OPTIONS) as unknown as ParsedRecord[];

export async function importFrom(
  client: Client,
  service: ServiceName,
  file: string,
  options: { domain: string | null; concurrency: number; progressTo: NodeJS.WriteStream },
): Promise<ImportFromResult> {
  const bytes = readFileSync(file);
  const parsed = SERVICES[service].read(new TextDecoder().decode(bytes), readCsv);
  const plan = planImport(service, parsed.rows, { domain: options.domain });
  // The content and the domain decide the keys: the same file to the same domain is the same batches.
  const fileId = createHash("sha256")
    .update(bytes)
    .update(`\0${options.domain ?? ""}`)
    .digest("hex")
    .slice(0, 32);

  const outcome = await createInBatches<PlannedCode>({
    rows: plan.codes,
    concurrency: options.concurrency,
    progressTo: options.progressTo,
    keyOf: (position, round) => `qr-records-import-from-${service}-${fileId}-${position}${round ? `-${round}` : ""}`,
    send: async (batch, key) => {
      const { data, error, response } = await client.api.POST("/dynqrcodes/batch", {
        params: { header: { "Idempotency-Key": key } },
        body: { dynqrcodes: batch.map((code) => code.item) },
      });
      if (!response.ok || !data) throw apiError(response, error);
      return { created: data.created, replayed: response.headers.get("idempotent-replayed") === "true" };
    },
    // Taken by the code an earlier run made of this very link: there already.
    alreadyThere: async (planned) => {
      const { data } = await client.api.GET("/dynqrcodes", {
        params: { query: { external_id: planned.item.external_id } },
      });
      const made = data?.dynqrcodes[0];
      return made !== undefined && made.code === planned.code && made.destination_url === planned.item.destination_url;
    },
  });

  const rejected: RejectedRow[] = [...parsed.rejected, ...plan.rejected];
  const cellsByLine = new Map([...parsed.rows, ...rejected].map((r) => [r.line, r.cells]));
  const all = [...rejected.map(({ line, error }) => ({ line, error })), ...outcome.rejected].sort(
    (a, b) => a.line - b.line,
  );
  const columns = [...new Set(all.flatMap((r) => Object.keys(cellsByLine.get(r.line) ?? {})))];
  const rejectedFile = writeRejected(file, all, columns, (line) =>
    columns.map((c) => cellsByLine.get(line)?.[c] ?? ""),
  );
  return {
    links: parsed.rows.length + parsed.rejected.length,
    created: outcome.created,
    replayed: outcome.replayed,
    existing: outcome.existing,
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

A back-half the library or another link of the file already holds, a destination that is not
an http(s) URL, or a back-half other than 1 to 64 of 0-9 A-Z a-z _ - is refused: those rows
are written, with their line (a JSON file: the link's position in it) and the reason, to
<file>.rejected.csv. Running the same file again creates nothing twice: what an earlier run
made is counted, not created or refused.

Options:
  --domain DOMAIN   the verified domain you moved over from the service: the codes answer at
                    https://DOMAIN/<back-half>, as they did there
  --concurrency N   batches in flight at once (default 4)
  -h, --help        this help

Exit status: 0 every link imported, 2 some rows rejected, 1 the import stopped (run it again).`;
