// GET /v1/bundle (docs/BUNDLE.md): the library as NDJSON, read in keyset pages and sent page by
// page, so that memory holds one page whatever the library's size. Each page of dynamic codes
// is followed by their scans, code by code, a page at a time.
import { db, dialectSql, readRows } from "../platform/db";
import { now } from "../platform/clock";
import { sendableUrl } from "../platform/urls";
import { libraryWhere, type Library } from "../library/library";
import { libraryKey } from "../library/libraryKey";
import { keysetPages } from "../library/paging";
import { toSeconds } from "../library/validation";
import { rulesRecordOf } from "../rules";
import { BUNDLE_VERSION, type DomainLine, type DynamicLine, type StaticLine } from "./lines";

const CODE_PAGE = 500;
/**
 * Small pages, so that a page's rows and text die in the young generation (4 MB on the main
 * thread: `--max-semi-space-size=2`). At 5,000 scans a page they outlived it, and the old
 * generation's uncollected garbage grew the server by 140-180 MB at 200,000 scans; at 250,
 * +0-8 MB once the first export's fixed costs are paid (docs/BENCHMARKS.md).
 */
const SCAN_PAGE = 250;

const lines = (values: object[]) => values.map((value) => `${JSON.stringify(value)}\n`).join("");
const seconds = (time: Date | null) => (time === null ? null : toSeconds(time));

/**
 * A code's scans after an id, `scanned_at` as whole seconds: the scan export's walk of the
 * (dynamicCodeId, id) index (a query over a page of codes at once, with a row-value keyset,
 * was sorted anew for every page on SQLite).
 */
const SCANS_SQL = dialectSql((d) =>
  d === "sqlite"
    ? `SELECT "id", CAST(strftime('%s', "scannedAt") AS INTEGER), "country", "device", "os", "browser", "unique", "destinationUrl"
       FROM "ScanEvent" WHERE "dynamicCodeId" = ? AND "id" > ? ORDER BY "dynamicCodeId", "id" LIMIT ?`
    : `SELECT "id", floor(extract(epoch from "scannedAt"))::int8, "country", "device", "os", "browser", "unique", "destinationUrl"
       FROM "ScanEvent" WHERE "dynamicCodeId" = ? AND "id" > ? ORDER BY "dynamicCodeId", "id" LIMIT ?`,
);
type ScanRow = [string, number | string, string, string, string, string, boolean | number, string];

async function* staticLines(library: Library): AsyncGenerator<string> {
  const pages = keysetPages(
    (after, take) =>
      db.staticCode.findMany({
        where: { ...libraryWhere(library), ...(after ? { id: { gt: after } } : {}) },
        orderBy: { id: "asc" },
        take,
      }),
    CODE_PAGE,
  );
  for await (const rows of pages)
    yield lines(
      rows.map((r): StaticLine => ({
        type: "static",
        qr_id: r.id,
        code_type: r.type as StaticLine["code_type"],
        url: r.url === null ? null : sendableUrl(r.url),
        content: r.content === null ? null : JSON.parse(r.content),
        name: r.name,
        style: JSON.parse(r.style),
        status: r.reviewStatus as "active" | "draft",
        metadata: r.metadata ? JSON.parse(r.metadata) : null,
        external_id: r.externalId,
        created_at: toSeconds(r.createdAt),
        updated_at: toSeconds(r.updatedAt),
      })),
    );
}

/**
 * A code's scans as lines, a page's text at a time, written straight from the driver's row
 * arrays: the same bytes as `JSON.stringify` of a ScanLine (./lines.ts; field order included),
 * without an object per scan and an array of lines per page.
 */
async function* scanLines(codeId: string, code: string, domain: string | null): AsyncGenerator<string> {
  const start = `{"type":"scan","code":${JSON.stringify(code)},"domain":${JSON.stringify(domain)},"scanned_at":`;
  const pages = keysetPages(
    (after, take) => readRows(SCANS_SQL, [codeId, after ?? "", take]) as Promise<ScanRow[]>,
    SCAN_PAGE,
    (row) => row[0],
  );
  const text = JSON.stringify;
  for await (const rows of pages) {
    let page = "";
    // destination "": the hosted page answered (server/hosted), which the code's own line says.
    for (const [, scannedAt, country, device, os, browser, unique, destination] of rows)
      page += `${start}${Number(scannedAt)},"country":${text(country)},"device":${text(device)},"os":${text(os)},"browser":${text(browser)},"unique":${unique ? "true" : "false"}${destination === "" ? "" : `,"destination":${text(sendableUrl(destination))}`}}\n`;
    yield page;
  }
}

async function* dynamicLines(library: Library): AsyncGenerator<string> {
  const pages = keysetPages(
    (after, take) =>
      db.dynamicCode.findMany({
        where: { ...libraryWhere(library), deletedAt: null, ...(after ? { id: { gt: after } } : {}) },
        orderBy: { id: "asc" },
        take,
      }),
    CODE_PAGE,
  );
  for await (const rows of pages) {
    yield lines(
      rows.map((r): DynamicLine => {
        const rules = rulesRecordOf(r);
        return {
          type: "dynamic",
          code: r.code,
          domain: r.domain || null,
          qr_id: r.id,
          code_type: r.type as DynamicLine["code_type"],
          destination_url: r.type === "url" ? sendableUrl(r.destinationUrl) : null,
          content: r.content === null ? null : JSON.parse(r.content),
          name: r.name,
          status: r.status as DynamicLine["status"],
          style: JSON.parse(r.style),
          expires_at: rules.expires_at,
          expired_url: rules.expired_url,
          targets: rules.targets,
          utm: rules.utm,
          password_hash: r.passwordHash,
          metadata: r.metadata ? JSON.parse(r.metadata) : null,
          external_id: r.externalId,
          published_at: seconds(r.publishedAt),
          created_at: toSeconds(r.createdAt),
          updated_at: toSeconds(r.updatedAt),
        };
      }),
    );
    for (const r of rows) yield* scanLines(r.id, r.code, r.domain || null);
  }
}

/** The library's custom domains (a handful: one read), each with whether it was verified here. */
async function* domainLines(library: Library): AsyncGenerator<string> {
  const rows = await db.domain.findMany({ where: { library: libraryKey(library) }, orderBy: { domain: "asc" } });
  if (rows.length > 0)
    yield lines(rows.map((r): DomainLine => ({ type: "domain", domain: r.domain, verified: r.verifiedAt !== null })));
}

/** The whole library, a page of lines at a time. */
export async function* bundleChunks(library: Library): AsyncGenerator<string> {
  yield lines([{ type: "bundle", version: BUNDLE_VERSION, exported_at: toSeconds(now()) }]);
  yield* domainLines(library);
  yield* staticLines(library);
  yield* dynamicLines(library);
}
