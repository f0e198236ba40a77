// The second reading of a checked bundle: every code the plan creates and the scans of each,
// in one driver-level transaction (server/platform/db.ts, writeTransaction) on either backend,
// with the rollups that analytics read added from the imported scans exactly as the scan writer
// adds its batches' (server/scan/rollups.ts). Visitor-day marks are not written: the visitor
// hashes did not travel, and `unique` comes as the source decided it (docs/BUNDLE.md).
import { actorOf } from "../activity";
import { QUARTER_MS } from "../analytics/timeZones";
import { insertEach, storedTime, writeTransaction, type RunEach } from "../platform/db";
import { randomString, timeOrderedId } from "../platform/ids";
import { nowMs } from "../platform/clock";
import { foldForSearch } from "../platform/searchFold";
import { libraryOwner, type Library } from "../library/library";
import { libraryKey } from "../library/libraryKey";
import { writeRollups } from "../scan/rollups";
import { SCAN_COLUMNS, type ScanRow } from "../scan/rows";
import { SCAN_INSERT } from "../scan/write";
import type { Plan } from "./checkBundle";
import { parseLine, type DynamicLine, type StaticLine } from "./lines";
import type { Lines } from "./spool";
import { createdTypedColumns } from "../hosted/content";

export type Importer = { userId: string; apiKeyId: string; library: Library };
export type Counts = { static: number; dynamic: number; scans: number };
export type ImportResult = { created: Counts; skipped: Counts; codes: string[] };

const CODE_ROWS = 200;
const SCAN_ROWS = 5000;

const OWNED = [
  "id",
  "userId",
  "teamId",
  "createdById",
  "apiKeyId",
  "name",
  "style",
  "reviewedById",
  "reviewedAt",
  "createdAt",
  "updatedAt",
  "searchName",
  "searchUrl",
  "metadata",
  "externalId",
] as const;
const TIMES = { reviewedAt: "timestamp(3)", createdAt: "timestamp(3)", updatedAt: "timestamp(3)" };
const SQL = {
  static: insertEach("StaticCode", [...OWNED, "type", "url", "content", "reviewStatus"], TIMES),
  dynamic: insertEach(
    "DynamicCode",
    [
      ...OWNED,
      "code",
      "domain",
      "type",
      "destinationUrl",
      "content",
      "status",
      "expiresAt",
      "expiredUrl",
      "targets",
      "utm",
      "passwordHash",
      "publishedAt",
    ],
    { ...TIMES, expiresAt: "timestamp(3)", publishedAt: "timestamp(3)" },
  ),
  // Added unverified: the TXT record is created again for this instance (server/domains).
  domain: insertEach("Domain", ["domain", "library", "token", "verifiedAt", "createdAt"], {
    verifiedAt: "timestamp(3)",
    createdAt: "timestamp(3)",
  }),
  activity: insertEach(
    "ActivityEntry",
    ["id", "teamId", "userId", "actorId", "actorLabel", "action", "target", "detail", "createdAt"],
    { createdAt: "timestamp(3)" },
  ),
};

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
const time = (seconds: number | null | undefined) =>
  seconds === null || seconds === undefined ? null : storedTime(seconds * 1000);

/** The columns every code has, in OWNED's order. */
function ownedColumns(importer: Importer, id: string, line: StaticLine | DynamicLine, draft: boolean, at: number) {
  const owner = libraryOwner(importer.library);
  const createdAt = line.created_at ?? Math.floor(at / 1000);
  const reviewed = importer.library.kind === "team" && !draft;
  const metadata = line.metadata && Object.keys(line.metadata).length > 0 ? line.metadata : null;
  // A static code of another type than url has no URL to find it by (server/platform/searchFold.ts).
  const url = line.type === "static" ? (line.url ?? "") : (line.destination_url ?? "");
  return [
    id,
    owner.userId,
    owner.teamId,
    importer.userId,
    importer.apiKeyId,
    line.name.trim(),
    JSON.stringify(line.style ?? {}),
    reviewed ? importer.userId : null,
    reviewed ? storedTime(at) : null,
    time(createdAt),
    time(line.updated_at ?? createdAt),
    foldForSearch(line.name.trim()),
    foldForSearch(url),
    json(metadata),
    line.external_id ?? null,
  ];
}

/** Writes what the plan creates; the counts, and the codes created (their copies are refreshed after the commit). */
export async function writeBundle(lines: Lines, plan: Plan, importer: Importer): Promise<ImportResult> {
  const at = nowMs();
  const team = importer.library.kind === "team";
  const actor = await actorOf(importer.userId);
  const created: Counts = { static: 0, dynamic: 0, scans: 0 };
  const skipped: Counts = { static: 0, dynamic: 0, scans: 0 };
  const codes: string[] = [];
  // Where a created code's scans went when a scan line names none: its destination_url.
  const destinations = new Map<string, string>();
  await writeTransaction(async (runEach: RunEach) => {
    const rows = { static: [] as unknown[][], dynamic: [] as unknown[][], scans: [] as ScanRow[] };
    const flushCodes = async () => {
      await runEach(SQL.static, rows.static.splice(0));
      await runEach(SQL.dynamic, rows.dynamic.splice(0));
    };
    const flushScans = async () => {
      await flushCodes();
      const scans = rows.scans.splice(0);
      await runEach(SCAN_INSERT, scans.map(scanColumns));
      await writeRollups(runEach, scans);
    };
    await runEach(
      SQL.domain,
      plan.domains.map((domain) => [domain, libraryKey(importer.library), randomString(32), null, storedTime(at)]),
    );
    for await (const [number, text] of lines()) {
      const line = parseLine(text);
      if (line === null || line.type === "bundle" || line.type === "domain") continue;
      if (line.type === "scan") {
        const codeId = plan.created.get(line.code);
        if (codeId === undefined) {
          skipped.scans++;
          continue;
        }
        rows.scans.push(scanRow(codeId, line.scanned_at, line, line.destination ?? destinations.get(line.code)!));
        created.scans++;
        if (rows.scans.length >= SCAN_ROWS) await flushScans();
        continue;
      }
      const id = plan.ids.get(number);
      if (id === undefined) {
        skipped[line.type]++;
        continue;
      }
      created[line.type]++;
      if (line.type === "static") {
        const draft = team && line.status === "draft";
        rows.static.push([
          ...ownedColumns(importer, id, line, draft, at),
          line.code_type ?? "url",
          line.url ?? null,
          line.content === undefined || line.content === null ? null : JSON.stringify(line.content),
          draft ? "draft" : "active",
        ]);
      } else {
        // A personal library has no review: a team's draft arrives there active.
        const status = !team && line.status === "draft" ? "active" : (line.status ?? "active");
        const createdAt = line.created_at ?? Math.floor(at / 1000);
        const published = line.published_at ?? (team && status !== "draft" ? createdAt : null);
        const typed = createdTypedColumns({ ...line, type: line.code_type });
        rows.dynamic.push([
          ...ownedColumns(importer, id, line, status === "draft", at),
          line.code,
          line.domain ?? "",
          typed.type,
          typed.destinationUrl,
          typed.content,
          status,
          time(line.expires_at),
          line.expired_url ?? null,
          json(line.targets),
          json(line.utm),
          line.password_hash ?? null,
          time(published),
        ]);
        destinations.set(line.code, typed.destinationUrl);
        codes.push(line.code);
      }
      if (rows.static.length + rows.dynamic.length >= CODE_ROWS) await flushCodes();
    }
    await flushScans();
    await runEach(SQL.activity, [
      [
        timeOrderedId("act"),
        team ? (importer.library as { teamId: string }).teamId : null,
        team ? null : importer.userId,
        actor.id,
        actor.label,
        "bundle.imported",
        null,
        JSON.stringify({ via: "API", created, skipped }),
        storedTime(at),
      ],
    ]);
  });
  return { created, skipped, codes };
}

type ScanFields = { country: string; device: string; os: string; browser: string; unique: boolean };

function scanRow(codeId: string, seconds: number, scan: ScanFields, destination: string): ScanRow {
  const scannedAt = storedTime(seconds * 1000);
  return {
    id: timeOrderedId("scan"),
    dynamicCodeId: codeId,
    scannedAt,
    day: scannedAt.slice(0, 10),
    quarter: Math.floor((seconds * 1000) / QUARTER_MS),
    country: scan.country,
    device: scan.device,
    os: scan.os,
    browser: scan.browser,
    // Keyed with the source's secret, a visitor hash would mean nothing here: none travels.
    visitorHash: "",
    unique: scan.unique ? 1 : 0,
    destinationUrl: destination,
    visitor: "",
  };
}

const scanColumns = (s: ScanRow) => SCAN_COLUMNS.map((column) => s[column]);
