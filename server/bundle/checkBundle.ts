// The first reading of a spooled bundle (docs/BUNDLE.md, "All or nothing"): every line checked,
// then the codes compared with what the instance holds. Its result says, per code line, whether
// it is already imported (skipped with its scans) or created, and under which id. Nothing is
// written: any problem is thrown, 400 for the bundle's own, 409 for conflicts with the instance.
import { db } from "../platform/db";
import { DomainError, type LineError } from "../platform/errors";
import { timeOrderedId } from "../platform/ids";
import { libraryWhere, type Library } from "../library/library";
import { libraryKey } from "../library/libraryKey";
import { keysetPages } from "../library/paging";
import { toSeconds } from "../library/validation";
import { BUNDLE_VERSION, LineProblem, MAX_LINE_ERRORS, parseLine } from "./lines";
import type { Lines } from "./spool";

type CodeEntry = { line: number; qrId?: string; createdAt?: number; externalId?: string | null };
/** `holds`: its url, or its content as stored (JSON): with created_at and name, what says "already imported". */
type StaticEntry = CodeEntry & { name: string; holds: string };
/** `domain`: "" for this instance's own base, as stored. */
type DynamicEntry = CodeEntry & { code: string; domain: string };

/** What the write does with each code line (by line number): its id, or skipped. */
export type Plan = {
  ids: Map<number, string>;
  skipped: Set<number>;
  /** The id of each dynamic code created, by code: its scans are written; the others' skipped. */
  created: Map<string, string>;
  /** The domains added to the library, unverified (a domain's DNS proof is per instance). */
  domains: string[];
};

const LOOKUP = 500;

class Problems {
  readonly list: LineError[] = [];
  add(line: number, error: string) {
    if (this.list.length < MAX_LINE_ERRORS) this.list.push({ line, error });
  }
  throwIfAny(code: "invalid" | "conflict", message: string) {
    if (this.list.length === 0) return;
    this.list.sort((a, b) => a.line - b.line);
    throw new DomainError(code, message, undefined, undefined, this.list);
  }
}

/** The lines' own checks: shape, order, duplicates, a scan's code. */
async function readEntries(lines: Lines) {
  const problems = new Problems();
  const statics: StaticEntry[] = [];
  const dynamics = new Map<string, DynamicEntry>();
  const domains = new Map<string, number>();
  const seen = { head: false, codes: false, qrIds: new Set<string>(), externalIds: new Set<string>() };
  const unique = (set: Set<string>, key: string, line: number, what: string) => {
    if (set.has(key)) problems.add(line, `${what} appears twice in the bundle`);
    set.add(key);
  };
  for await (const [line, text] of lines()) {
    let entry;
    try {
      entry = parseLine(text);
    } catch (error) {
      if (!(error instanceof LineProblem)) throw error;
      problems.add(line, error.message);
      continue;
    }
    if (entry === null) continue;
    if (!seen.head && entry.type !== "bundle") {
      problems.add(line, 'the first line must be {"type": "bundle", "version": 1}');
      seen.head = true;
    }
    switch (entry.type) {
      case "bundle":
        if (seen.head) problems.add(line, "the bundle line comes once, first");
        else if (entry.version !== BUNDLE_VERSION) problems.add(line, `unsupported bundle version: ${entry.version}`);
        seen.head = true;
        break;
      case "domain":
        if (seen.codes) problems.add(line, "domain lines come before the codes");
        else if (domains.has(entry.domain)) problems.add(line, `domain ${entry.domain} appears twice in the bundle`);
        domains.set(entry.domain, line);
        break;
      case "static":
        seen.codes = true;
        if (entry.qr_id !== undefined) unique(seen.qrIds, `static ${entry.qr_id}`, line, `qr_id ${entry.qr_id}`);
        if (entry.external_id)
          unique(seen.externalIds, `static ${entry.external_id}`, line, `external_id ${entry.external_id}`);
        statics.push({
          line,
          qrId: entry.qr_id,
          createdAt: entry.created_at,
          externalId: entry.external_id,
          name: entry.name.trim(),
          holds: entry.url ?? JSON.stringify(entry.content ?? null),
        });
        break;
      case "dynamic":
        seen.codes = true;
        if (entry.domain && !domains.has(entry.domain))
          problems.add(line, `domain ${entry.domain} has no domain line before it`);
        // A code is unique in its library whatever its domain (docs/DOMAINS.md).
        if (dynamics.has(entry.code)) problems.add(line, `code ${entry.code} appears twice in the bundle`);
        if (entry.qr_id !== undefined) unique(seen.qrIds, `dynamic ${entry.qr_id}`, line, `qr_id ${entry.qr_id}`);
        if (entry.external_id)
          unique(seen.externalIds, `dynamic ${entry.external_id}`, line, `external_id ${entry.external_id}`);
        dynamics.set(entry.code, {
          line,
          code: entry.code,
          domain: entry.domain ?? "",
          qrId: entry.qr_id,
          createdAt: entry.created_at,
          externalId: entry.external_id,
        });
        break;
      case "scan":
        if (!dynamics.has(entry.code))
          problems.add(line, `scan of code ${entry.code} before (or without) its dynamic line`);
        else if ((entry.domain ?? "") !== dynamics.get(entry.code)!.domain)
          problems.add(line, `scan of code ${entry.code} on another domain than its dynamic line's`);
        break;
    }
  }
  if (!seen.head) problems.add(1, 'the first line must be {"type": "bundle", "version": 1}');
  problems.throwIfAny("invalid", "Some lines of the bundle are invalid");
  return { statics, dynamics: [...dynamics.values()], domains };
}

const chunks = <T>(items: T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / LOOKUP) }, (_, i) => items.slice(i * LOOKUP, (i + 1) * LOOKUP));
const inLibrary = (library: Library, row: { userId: string | null; teamId: string | null }) =>
  library.kind === "personal" ? row.userId === library.userId && row.teamId === null : row.teamId === library.teamId;

/** Domain lines: the library's already, another library's (409), or added unverified. */
async function planDomains(library: Library, domains: Map<string, number>, plan: Plan, conflicts: Problems) {
  const owners = new Map(
    (
      await db.domain.findMany({
        where: { domain: { in: [...domains.keys()] } },
        select: { domain: true, library: true },
      })
    ).map((r) => [r.domain, r.library]),
  );
  for (const [domain, line] of domains) {
    const owner = owners.get(domain);
    if (owner === undefined) plan.domains.push(domain);
    else if (owner !== libraryKey(library)) conflicts.add(line, `domain ${domain} belongs to another library`);
  }
}

/**
 * Dynamic lines: already imported (same code on the same domain in the library, same created_at),
 * taken (409: on its domain, or in the library on another domain), or created.
 */
async function planDynamic(library: Library, entries: DynamicEntry[], plan: Plan, conflicts: Problems) {
  const create: DynamicEntry[] = [];
  for (const part of chunks(entries)) {
    const rows = await db.dynamicCode.findMany({
      where: { code: { in: part.map((e) => e.code) } },
      select: { code: true, domain: true, userId: true, teamId: true, deletedAt: true, createdAt: true },
    });
    // Each entry looks up its code's rows (a filter of the page's rows per entry was quadratic).
    const byCode = Map.groupBy(rows, (r) => r.code);
    for (const entry of part) {
      const holders = byCode.get(entry.code) ?? [];
      const spot = holders.find((r) => r.domain === entry.domain);
      if (spot && inLibrary(library, spot) && spot.deletedAt === null && toSeconds(spot.createdAt) === entry.createdAt)
        plan.skipped.add(entry.line);
      else if (spot || holders.some((r) => inLibrary(library, r)))
        conflicts.add(entry.line, `code ${entry.code} is already taken`);
      else create.push(entry);
    }
  }
  const taken = await takenIds("dynamic", create);
  for (const entry of create) {
    const id = entry.qrId && !taken.has(entry.qrId) ? entry.qrId : timeOrderedId("dyn");
    plan.ids.set(entry.line, id);
    plan.created.set(entry.code, id);
  }
  await refuseUsedExternalIds("dynamic", library, create, conflicts);
}

/** Static lines: already imported (its qr_id in the library, or its created_at, name and url or content), or created. */
async function planStatic(library: Library, entries: StaticEntry[], plan: Plan, conflicts: Problems) {
  const ids = new Map<string, { userId: string | null; teamId: string | null }>();
  for (const part of chunks(entries.filter((e) => e.qrId)))
    for (const row of await db.staticCode.findMany({
      where: { id: { in: part.map((e) => e.qrId!) } },
      select: { id: true, userId: true, teamId: true },
    }))
      ids.set(row.id, row);
  const rest: StaticEntry[] = [];
  for (const entry of entries)
    if (entry.qrId && ids.has(entry.qrId) && inLibrary(library, ids.get(entry.qrId)!)) plan.skipped.add(entry.line);
    else rest.push(entry);
  const same = rest.some((e) => e.createdAt !== undefined) ? await staticFingerprints(library) : new Set<string>();
  const create: StaticEntry[] = [];
  for (const entry of rest)
    if (same.has(fingerprint(entry.createdAt, entry.name, entry.holds))) plan.skipped.add(entry.line);
    else create.push(entry);
  for (const entry of create)
    plan.ids.set(entry.line, entry.qrId && !ids.has(entry.qrId) ? entry.qrId : timeOrderedId("qr"));
  await refuseUsedExternalIds("static", library, create, conflicts);
}

const fingerprint = (createdAt: number | undefined, name: string, holds: string) => `${createdAt}\n${name}\n${holds}`;

/** The library's static codes as (created_at, name, url or content): a qr_id taken elsewhere made them new ids. */
async function staticFingerprints(library: Library): Promise<Set<string>> {
  const set = new Set<string>();
  const pages = keysetPages((after, take) =>
    db.staticCode.findMany({
      where: { ...libraryWhere(library), ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: "asc" },
      take,
      select: { id: true, createdAt: true, name: true, url: true, content: true },
    }),
  );
  for await (const rows of pages)
    for (const r of rows) set.add(fingerprint(toSeconds(r.createdAt), r.name, r.url ?? r.content ?? "null"));
  return set;
}

async function takenIds(kind: "static" | "dynamic", entries: CodeEntry[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const part of chunks(entries.filter((e) => e.qrId))) {
    const where = { id: { in: part.map((e) => e.qrId!) } };
    const rows =
      kind === "static"
        ? await db.staticCode.findMany({ where, select: { id: true } })
        : await db.dynamicCode.findMany({ where, select: { id: true } });
    for (const row of rows) taken.add(row.id);
  }
  return taken;
}

async function refuseUsedExternalIds(
  kind: "static" | "dynamic",
  library: Library,
  entries: CodeEntry[],
  conflicts: Problems,
) {
  for (const part of chunks(entries.filter((e) => e.externalId))) {
    const where = { ...libraryWhere(library), externalId: { in: part.map((e) => e.externalId!) } };
    const rows =
      kind === "static"
        ? await db.staticCode.findMany({ where, select: { externalId: true } })
        : await db.dynamicCode.findMany({ where, select: { externalId: true } });
    const used = new Set(rows.map((r) => r.externalId));
    for (const entry of part)
      if (used.has(entry.externalId!)) conflicts.add(entry.line, `external_id already used: ${entry.externalId}`);
  }
}

/** The whole check: the bundle's lines (400), then the instance (409). */
export async function checkBundle(lines: Lines, library: Library): Promise<Plan> {
  const { statics, dynamics, domains } = await readEntries(lines);
  const plan: Plan = { ids: new Map(), skipped: new Set(), created: new Map(), domains: [] };
  const conflicts = new Problems();
  await planDomains(library, domains, plan, conflicts);
  await planStatic(library, statics, plan, conflicts);
  await planDynamic(library, dynamics, plan, conflicts);
  conflicts.throwIfAny("conflict", "Some lines of the bundle conflict with this instance");
  return plan;
}
