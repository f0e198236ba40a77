// The library pages' CSV import (issue 21): the browser parses the file (csv-parse, the rules
// of `qr-records import`: clients/typescript/src/csv-rows.ts) and sends its rows here, first to
// be checked, all of them, before anything is created; then in batches of 50, each created
// all or nothing under an idempotency key made of the file's SHA-256 and the batch's position
// (the /v1 keys' table and rules: server/idempotency/). The same file imported again, after a
// closed tab or a reload, replays the batches that were created and creates only the rest.
import { z } from "zod";
import { IMPORT_BATCH_SIZE, IMPORT_CHECK_SIZE, staticItemOfCells } from "../../clients/typescript/src/csv-rows";
import { db } from "../platform/db";
import { DomainError, fromZodIssues } from "../platform/errors";
import { inSlices } from "../platform/event-loop";
import { claimIdempotencyKey, requestHash, type StoredAnswer } from "../idempotency";
import { logError } from "../platform/log";
import { createDynamicCodes } from "./dynamicCodes";
import { statusChangeProblem } from "./dynamicStatuses";
import { dynamicCodeInput, STATUSES, type DynamicStatus } from "./dynamicRecords";
import { initialReviewStatus, libraryWhere, type Actor } from "./library";
import { libraryKey } from "./libraryKey";
import { itemDestinations, libraryKindField, requireEditor } from "./libraryItems";
import { createStaticCodes } from "./staticCodes";
import { staticCodeInput } from "./staticRecords";
import { takenCodeProblems } from "./backHalf";
import { domainProblems, spelledDomainOrNone } from "../domains/domains";
import { boundedArray, serialisedDestination, servedShortLinkIssues } from "./validation";
import { itemKind, type ItemKind } from "../teams/teams";

/** A row of the file: its line (for the messages), its cells as the file has them. */
const importRow = z.strictObject({
  line: z.number().int().min(1),
  name: z.string(),
  /** A static code's url, a dynamic code's destination_url. */
  url: z.string(),
  /** A dynamic code's status column; empty or absent: the library's first status. */
  status: z.string().optional(),
  /** A dynamic code's own back-half; empty or absent: a generated code. */
  code: z.string().optional(),
  /** A dynamic code's metadata and external_id: what "Import from another service" keeps of a link. */
  metadata: z.record(z.string(), z.string()).optional(),
  external_id: z.string().optional(),
  /** A static code's `type` and its content columns' cells (docs/TYPES.md, "CSV import"), by column. */
  cells: z.record(z.string().max(40), z.string()).optional(),
  /** A dynamic code's custom domain; empty or absent: the service's own base. */
  domain: z.string().optional(),
});
type ImportRow = z.infer<typeof importRow>;

const rowsOf = (max: number) =>
  boundedArray(max, z.array(importRow).min(1, "Send at least one row").max(max, `Send at most ${max} rows at once`));
export const importCheckInput = z.object({ scope: libraryKindField, kind: itemKind, rows: rowsOf(IMPORT_CHECK_SIZE) });
export const importBatchInput = importCheckInput.extend({
  /** The file's SHA-256 (hex): with `position`, the batch's idempotency key. */
  file: z.string().regex(/^[0-9a-f]{64}$/, "file must be the SHA-256 of the file, in hex"),
  position: z.number().int().min(0),
  rows: rowsOf(IMPORT_BATCH_SIZE),
});

/** A refused row; `existing`: its back-half is held by the code an earlier import made of this very link. */
export type ImportProblem = { line: number; error: string; existing?: true };

/** The row's chosen back-half, or undefined for a generated code. */
const chosenCode = (row: ImportRow) => (row.code?.trim() ? row.code.trim() : undefined);
/** The row's custom domain, or undefined for the service's own base. */
const chosenDomain = (row: ImportRow) => (row.domain?.trim() ? row.domain.trim() : undefined);

const isStatus = (value: string): value is DynamicStatus => (STATUSES as readonly string[]).includes(value);

/** The row's status when it asks for one other than the library's first, or null. */
function requestedStatus(actor: Actor, row: ImportRow): DynamicStatus | null {
  const status = row.status?.trim() ?? "";
  return status === "" || status === initialReviewStatus(actor.library) ? null : (status as DynamicStatus);
}

/** A static row as a create item, and the problem of a cell in another type's column. */
const staticItemOf = (row: ImportRow) =>
  staticItemOfCells((column) =>
    column === "name" ? row.name : column === "url" ? row.url : (row.cells?.[column] ?? ""),
  );

/** The first problem of a row under the API's rules (a create's body, then who may set its status), or null. */
function rowProblem(actor: Actor, kind: ItemKind, row: ImportRow): string | null {
  const typed = kind === "static" ? staticItemOf(row) : null;
  if (typed?.problem) return typed.problem;
  const parsed = typed
    ? staticCodeInput.safeParse(typed.item)
    : dynamicCodeInput.safeParse({
        name: row.name,
        destination_url: row.url,
        code: chosenCode(row),
        metadata: row.metadata,
        external_id: row.external_id,
        domain: chosenDomain(row),
      });
  const issues = [
    ...servedShortLinkIssues(actor.servedHosts, itemDestinations(kind, row.url)),
    ...(parsed.success ? [] : parsed.error.issues),
  ];
  if (issues.length > 0) return fromZodIssues(issues).message;
  if (kind === "static") {
    if (chosenCode(row)) return "code is only for dynamic codes";
    if (chosenDomain(row)) return "domain is only for dynamic codes";
    return row.status?.trim() ? "status is only for dynamic codes" : null;
  }
  const status = row.status?.trim() ?? "";
  if (status !== "" && !isStatus(status)) return `status must be one of ${STATUSES.join(", ")}`;
  const wanted = requestedStatus(actor, row);
  return wanted ? (statusChangeProblem(actor, wanted)?.message ?? null) : null;
}

/** Every row's problem, by line; changes nothing. A thousand rows of long URLs take a while: other requests are served every few ms. */
export async function checkImportRows(actor: Actor, kind: ItemKind, rows: ImportRow[]): Promise<ImportProblem[]> {
  requireEditor(actor);
  const problems: ImportProblem[] = [];
  const pause = inSlices();
  for (const row of rows) {
    await pause();
    const error = rowProblem(actor, kind, row);
    if (error) problems.push({ line: row.line, error });
  }
  if (kind === "static") return problems;
  // Domains the library cannot use; then back-halves taken, or used by an earlier row: a query each for the rows otherwise fine.
  const refused = new Set(problems.map((p) => p.line));
  let fine = rows.filter((row) => !refused.has(row.line));
  const spelled = fine.map((row) => spelledDomainOrNone(chosenDomain(row)));
  const unusable = await domainProblems(actor.library, spelled);
  problems.push(...unusable.map((u) => ({ line: fine[u.index].line, error: u.error })));
  const refusedHere = new Set(unusable.map((u) => u.index));
  const choices = fine.flatMap((row, i) => (refusedHere.has(i) ? [] : [{ code: chosenCode(row), domain: spelled[i] }]));
  fine = fine.filter((_, i) => !refusedHere.has(i));
  const taken = await takenCodeProblems(actor.library, choices);
  const before = await importedBefore(
    actor,
    taken.map((t) => fine[t.index]),
  );
  return [
    ...problems,
    ...taken.map((t) => {
      const row = fine[t.index];
      return before.has(row)
        ? { line: row.line, error: "already imported", existing: true as const }
        : { line: row.line, error: t.error };
    }),
  ].sort((a, b) => a.line - b.line);
}

/** The rows whose back-half the library holds already, with the row's external_id and destination: an earlier import's. */
async function importedBefore(actor: Actor, rows: ImportRow[]): Promise<Set<ImportRow>> {
  const named = rows.filter((row) => row.external_id && chosenCode(row));
  if (named.length === 0) return new Set();
  const held = await db.dynamicCode.findMany({
    where: { ...libraryWhere(actor.library), deletedAt: null, code: { in: named.map((row) => chosenCode(row)!) } },
    select: { code: true, externalId: true, destinationUrl: true },
  });
  const byCode = new Map(held.map((h) => [h.code, h]));
  return new Set(
    named.filter((row) => {
      const h = byCode.get(chosenCode(row)!);
      return h && h.externalId === row.external_id && h.destinationUrl === serialisedDestination(row.url);
    }),
  );
}

export type ImportBatchResult = { created: number; replayed: boolean };

/**
 * One batch, all or nothing, once: checked again (a refused row names its line, as pasted
 * lines do), then created under the key of the file and position. A batch that was created
 * before answers what it answered then, with `replayed`; one still running elsewhere is a
 * `conflict` (the page waits and sends it again).
 */
export async function importBatch(actor: Actor, input: z.infer<typeof importBatchInput>): Promise<ImportBatchResult> {
  const problems = await checkImportRows(actor, input.kind, input.rows);
  if (problems.length > 0)
    throw new DomainError(
      "invalid",
      "Some lines are invalid",
      problems.map((p) => ({ index: p.line - 1, error: p.error })),
    );
  const key = `library-import:${input.file}:${input.kind}:${input.position}`;
  const claim = await claimIdempotencyKey(
    { library: libraryKey(actor.library), ownerId: actor.userId },
    key,
    requestHash("IMPORT", input.kind, JSON.stringify(input.rows)),
  );
  if (claim.replay) return { created: (JSON.parse(claim.replay.body) as { created: number }).created, replayed: true };
  let answer: StoredAnswer | null = null;
  try {
    const created =
      input.kind === "static"
        ? await createStaticCodes(
            actor,
            // Parsed again as checked above: the url serialised, the content's cells as fields.
            input.rows.map((r) => staticCodeInput.parse(staticItemOf(r).item)),
          )
        : await createDynamicCodes(
            actor,
            input.rows.map((r) => ({
              name: r.name,
              destination_url: serialisedDestination(r.url),
              code: chosenCode(r),
              metadata: r.metadata,
              external_id: r.external_id,
              domain: chosenDomain(r),
            })),
            { statuses: input.rows.map((r) => requestedStatus(actor, r)) },
          );
    answer = { status: 200, body: JSON.stringify({ created: created.length }) };
    return { created: created.length, replayed: false };
  } finally {
    // Kept for the next import of the file; a failure frees the key, as on /v1.
    await claim.finish(answer).catch((error) => logError("idempotency.finish_failed", { key }, error));
  }
}
