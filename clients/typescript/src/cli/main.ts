// qr-records: import, export, analytics and QR images of a QR Code Records library from the command line.
// Key from QR_RECORDS_API_KEY, base URL from QR_RECORDS_URL; `--help` on every command.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { createClient } from "../client";
import { ApiError } from "../errors";
import { analytics } from "./analytics";
import { BUNDLE_HELP, bundleExport, bundleImport } from "./bundle";
import { exportCsv, type ExportWhat } from "./export";
import { downloadImages, type ImagesKind } from "./images";
import { BATCH_SIZE, importFile } from "./import";
import { IMPORT_FROM_HELP, importFrom } from "./import-from";
import { isServiceName, SERVICE_NAMES } from "../import-from";
import { listCodes, type ListWhat } from "./list";
import { getRecord, RECORDS_HELP, updateMany } from "./records";

const ENVIRONMENT = `Environment:
  QR_RECORDS_API_KEY   the API key (personal qrp_… or business qrb_…), required
  QR_RECORDS_URL       the service's base URL (default http://localhost:3000)`;

const HELP = {
  main: `Usage: qr-records <command> [options]

Commands:
  import <file.csv>                     create the file's rows as QR codes, in batches of ${BATCH_SIZE}; safe to run again
  import-from <service> <file>          move links from bitly, dub, shlink, yourls, kutt or rebrandly, back-halves kept
  export <static|dynamic|scans CODE>    a library's codes, or one dynamic code's scans, as CSV
  analytics [CODE]                      scan figures of the library or of one dynamic code
  list <static|dynamic>                 the library's codes, found by --search, --status, dates; sorted
  images <dir>                          the QR images of the library's codes, one file per code
  get <qr_id|code>                      one code's record as JSON
  update-many <file.csv>                change the codes a CSV file names, in batches of ${BATCH_SIZE}
  bundle <export|import> [file]         the whole library with its scans out, or into another library

Run \`qr-records <command> --help\` for a command's options.

${ENVIRONMENT}`,
  import: `Usage: qr-records import <file.csv> [--concurrency N]

Creates one QR code per row. The header decides the kind:
  name,url                              static codes
  name,destination_url[,status][,code]  dynamic codes (status: active, paused or draft; code: your own
                                        back-half, 1 to 64 of 0-9 A-Z a-z _ -, else a generated one)

Rows are sent in batches of ${BATCH_SIZE}, each with an Idempotency-Key made from the file's content and
the batch's position: running the same file again (after an interruption, within 24 hours)
creates only what is missing, nothing twice. Rows the API refuses are written, with their line
numbers and the API's messages, to <file.csv>.rejected.csv; the other rows of their batch are created.
Fix the rows in that report and import it (its line and error columns are ignored): a changed
file is a new import, so fixing the original file and running it again would create its rows anew.
Progress goes to stderr: a bar with rows per second and ETA on a terminal, plain lines otherwise.

Options:
  --concurrency N   batches in flight at once (default 4; 429 answers are retried after Retry-After)
  -h, --help        this help

Exit status: 0 every row imported, 2 some rows rejected, 1 the import stopped (run it again).

${ENVIRONMENT}`,
  export: `Usage: qr-records export static [--out FILE]
       qr-records export dynamic [--out FILE]
       qr-records export scans CODE [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--out FILE]

Streams the API's CSV export: the static codes, the dynamic codes (with their total scans), or
one dynamic code's scans (default range: the last 30 days, UTC).

Options:
  --out FILE        write to FILE instead of stdout
  --from, --to      the scans' range, inclusive (scans only)
  -h, --help        this help

${ENVIRONMENT}`,
  analytics: `Usage: qr-records analytics [CODE] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--tz ZONE] [--json]

Without CODE: scans and unique scans of every dynamic code of the library, with the total.
With CODE: that code's totals, scans per day, and its countries, devices, systems and browsers.
Default range: the last 30 days up to today (in --tz).

Options:
  --from, --to      the range, inclusive
  --tz              the IANA time zone of the days, such as Europe/Berlin (default UTC)
  --json            the API's JSON answer instead of tables
  -h, --help        this help

${ENVIRONMENT}`,
  list: `Usage: qr-records list <static|dynamic> [--search TEXT] [--status active|paused|draft] [--sort newest|oldest|name]
                                     [--created-after T] [--created-before T] [--max N] [--json]

Prints the library's codes the filters keep, one per line, tab-separated: a static code's
qr_id, name and url; a dynamic code's code, status, name and destination_url (--json: each
record as a line of JSON). Filters combine; the pages are read one after another.

Options:
  --search TEXT       in the name or URL, any case (Unicode too; % and _ are plain characters), or an exact id
  --status S          dynamic codes in this status only
  --sort S            newest (default), oldest, or name (A to Z, any case)
  --created-after T   created at or after T; --created-before T: before T (epoch seconds or YYYY-MM-DD, UTC)
  --max N             at most N codes
  --json              JSON lines instead of columns
  -h, --help          this help

${ENVIRONMENT}`,
  images: `Usage: qr-records images <dir> [--kind static|dynamic|all] [--ids ID,ID,...] [--format svg|png|pdf] [--size N] [--size-mm N]

Downloads the API's ZIP of QR images (GET /v1/qrcodes/images.zip, /v1/dynqrcodes/images.zip) and
unpacks it into <dir> (created if missing): one file per code, named <qr_id or code>-<name>.<format>,
each drawn with its record's style. Files of the same name are replaced.

Options:
  --kind        static, dynamic or all (default all: both ZIPs)
  --ids         only these codes (qr_id values for static, codes for dynamic); needs --kind static or dynamic
  --format      svg (default), png, or pdf where the server offers it
  --size        width and height in pixels (64 to 2048, default 512)
  --size-mm     a PDF's size in millimetres
  -h, --help    this help

${ENVIRONMENT}`,
  "import-from": `${IMPORT_FROM_HELP}\n\n${ENVIRONMENT}`,
  get: `${RECORDS_HELP.get}\n\n${ENVIRONMENT}`,
  "update-many": `${RECORDS_HELP["update-many"]}\n\n${ENVIRONMENT}`,
  bundle: `${BUNDLE_HELP}\n\n${ENVIRONMENT}`,
};

type Command = keyof typeof HELP;

class UsageError extends Error {}

const HELP_OPTION = { help: { type: "boolean", short: "h" } } as const;

function args<O extends NonNullable<ParseArgsConfig["options"]>>(command: Command, argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: { ...HELP_OPTION, ...options } });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${HELP[command]}`);
  }
}

function client() {
  const apiKey = process.env.QR_RECORDS_API_KEY;
  if (!apiKey)
    throw new UsageError(
      "Set QR_RECORDS_API_KEY to your API key (generated on the profile page, or the team page for a business key)",
    );
  return createClient({
    apiKey,
    baseUrl: process.env.QR_RECORDS_URL || "http://localhost:3000",
    onRetry: ({ status, waitSeconds }) => {
      if (status !== 429)
        process.stderr.write(
          `\n${status === null ? "connection failed" : `HTTP ${status}`}: retrying in ${waitSeconds}s\n`,
        );
    },
  });
}

/** The first ten refused rows; the report file has them all. */
function reportRejected(rejected: { line: number; error: string }[]) {
  for (const r of rejected.slice(0, 10)) process.stdout.write(`  line ${r.line}: ${r.error}\n`);
  if (rejected.length > 10) process.stdout.write(`  … and ${rejected.length - 10} more\n`);
}

const DATE = { from: { type: "string" }, to: { type: "string" } } as const;

async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${HELP.main}\n`);
    return name ? 0 : 1;
  }
  if (!(name in HELP) || name === "main") throw new UsageError(`Unknown command: ${name}\n\n${HELP.main}`);
  const command = name as Command;
  const help = () => {
    process.stdout.write(`${HELP[command]}\n`);
    return 0;
  };
  const usage = (problem: string) => new UsageError(`${problem}\n\n${HELP[command]}`);

  if (command === "import") {
    const { values, positionals } = args(command, rest, { concurrency: { type: "string" } });
    if (values.help) return help();
    if (positionals.length !== 1) throw usage("import takes one CSV file");
    const concurrency = values.concurrency === undefined ? 4 : Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16)
      throw usage("--concurrency must be an integer from 1 to 16");
    const file = positionals[0];
    const result = await importFile(client(), file, { concurrency, progressTo: process.stderr });
    const done = result.rows - result.rejected.length;
    process.stdout.write(
      `${file}: ${done} of ${result.rows} rows imported as ${result.kind} codes (${result.created} created now, ${result.replayed} by an earlier run)` +
        (result.rejectedFile ? `; ${result.rejected.length} rejected, see ${result.rejectedFile}\n` : "\n"),
    );
    reportRejected(result.rejected);
    return result.rejected.length ? 2 : 0;
  }
  if (command === "import-from") {
    const { values, positionals } = args(command, rest, { domain: { type: "string" } });
    if (values.help) return help();
    const [service, file, ...extra] = positionals;
    if (!service || !file || extra.length) throw usage("import-from takes a service and a file");
    if (!isServiceName(service)) throw usage(`Unknown service: ${service} (one of ${SERVICE_NAMES.join(", ")})`);
    const domain = values.domain?.trim().toLowerCase() || null;
    if (domain !== null && !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domain))
      throw usage(`--domain must be a host name such as go.example.com, not ${values.domain}`);
    const result = await importFrom(client(), service, file, { domain, say: (text) => process.stderr.write(text) });
    process.stdout.write(
      `${file}: ${result.created + result.existing} of ${result.links} links imported from ${service} (${result.created} created now, ${result.existing} by an earlier run)` +
        (result.rejectedFile ? `; ${result.rejected.length} rejected, see ${result.rejectedFile}\n` : "\n"),
    );
    reportRejected(result.rejected);
    return result.rejected.length ? 2 : 0;
  }
  if (command === "export") {
    const { values, positionals } = args(command, rest, { ...DATE, out: { type: "string" } });
    if (values.help) return help();
    const [what, code, ...extra] = positionals;
    if (what === "scans" ? !code || extra.length : (what !== "static" && what !== "dynamic") || code)
      throw usage("export takes static, dynamic, or scans and a code");
    if (what !== "scans" && (values.from || values.to)) throw usage("--from and --to are for scans only");
    const target: ExportWhat =
      what === "scans" ? { what, code, from: values.from, to: values.to } : { what: what as "static" | "dynamic" };
    await exportCsv(client(), target, values.out);
    return 0;
  }
  if (command === "bundle") {
    const { values, positionals } = args(command, rest, { out: { type: "string" } });
    if (values.help) return help();
    const [what, file, ...extra] = positionals;
    if (what === "export" && !file && !extra.length) await bundleExport(client(), values.out);
    else if (what === "import" && file && !extra.length && !values.out)
      process.stdout.write(`${await bundleImport(client(), file)}\n`);
    else throw usage("bundle takes export [--out FILE], or import and a file");
    return 0;
  }
  if (command === "images") {
    const { values, positionals } = args(command, rest, {
      kind: { type: "string" },
      ids: { type: "string" },
      format: { type: "string" },
      size: { type: "string" },
      "size-mm": { type: "string" },
    });
    if (values.help) return help();
    if (positionals.length !== 1) throw usage("images takes one directory");
    const kind = values.kind ?? "all";
    if (kind !== "static" && kind !== "dynamic" && kind !== "all") throw usage("--kind must be static, dynamic or all");
    if (values.ids && kind === "all")
      throw usage("--ids needs --kind static or dynamic (qr_id values and codes are different ids)");
    const number = (option: string, text: string | undefined) => {
      if (text === undefined) return undefined;
      if (!/^\d+(\.\d+)?$/.test(text)) throw usage(`--${option} must be a number`);
      return Number(text);
    };
    const options = {
      format: values.format,
      size: number("size", values.size),
      sizeMm: number("size-mm", values["size-mm"]),
      ids: values.ids,
    };
    const dir = positionals[0];
    const api = client();
    for (const one of (kind === "all" ? ["static", "dynamic"] : [kind]) as ImagesKind[]) {
      const written = await downloadImages(api, one, dir, options);
      process.stdout.write(`${written} ${one} ${written === 1 ? "image" : "images"} written to ${dir}\n`);
    }
    return 0;
  }
  if (command === "list") {
    const { values, positionals } = args(command, rest, {
      search: { type: "string" },
      status: { type: "string" },
      sort: { type: "string" },
      "created-after": { type: "string" },
      "created-before": { type: "string" },
      max: { type: "string" },
      json: { type: "boolean" },
    });
    if (values.help) return help();
    const [what, ...extra] = positionals;
    if ((what !== "static" && what !== "dynamic") || extra.length) throw usage("list takes static or dynamic");
    if (values.status && what === "static") throw usage("--status is for dynamic codes");
    if (values.max !== undefined && !/^[1-9]\d{0,8}$/.test(values.max)) throw usage("--max must be a positive integer");
    const options = {
      search: values.search,
      status: values.status,
      sort: values.sort,
      createdAfter: values["created-after"],
      createdBefore: values["created-before"],
      max: values.max === undefined ? undefined : Number(values.max),
      json: Boolean(values.json),
    };
    await listCodes(client(), what as ListWhat, options, (line) => process.stdout.write(`${line}\n`));
    return 0;
  }
  if (command === "get" || command === "update-many") {
    const { values, positionals } = args(command, rest, {});
    if (values.help) return help();
    if (positionals.length !== 1)
      throw usage(command === "get" ? "get takes one qr_id or code" : "update-many takes one CSV file");
    if (command === "get") {
      process.stdout.write(`${await getRecord(client(), positionals[0])}\n`);
      return 0;
    }
    const result = await updateMany(client(), positionals[0]);
    process.stdout.write(
      `${positionals[0]}: ${result.updated} of ${result.rows} codes changed${result.held ? ` (${result.held} held for an admin's review)` : ""}\n`,
    );
    for (const r of result.refused) process.stdout.write(`  line ${r.line}: ${r.error}\n`);
    return result.refused.length ? 2 : 0;
  }
  const { values, positionals } = args(command, rest, { ...DATE, tz: { type: "string" }, json: { type: "boolean" } });
  if (values.help) return help();
  if (positionals.length > 1) throw usage("analytics takes at most one code");
  process.stdout.write(
    `${await analytics(client(), { code: positionals[0], from: values.from, to: values.to, tz: values.tz, json: Boolean(values.json) })}\n`,
  );
  return 0;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`${error.message}\n`);
    else if (error instanceof ApiError)
      process.stderr.write(
        `qr-records: ${error.message} (HTTP ${error.status}${error.requestId ? `, request ${error.requestId}` : ""})${error.retryAfter ? `: try again in ${error.retryAfter} s` : ""}\n`,
      );
    else process.stderr.write(`qr-records: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
