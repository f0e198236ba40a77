// A library's custom domains (contract Part 3, "Custom domains"): added with a TXT record to
// create, verified when the record is found, deleted while no live code uses them. A domain
// belongs to one library across the service; in a team, admins manage them.
import { z } from "zod";
import { actorOf, recordActivity } from "../activity";
import { db, isUniqueViolation, type Tx } from "../platform/db";
import { DomainError, notFound, type BatchItemError } from "../platform/errors";
import { randomString } from "../platform/ids";
import type { Actor, Library } from "../library/library";
import { libraryKey } from "../library/libraryKey";
import { bodyObject, toSeconds } from "../library/validation";
import { domainField, normalDomain, spelledDomain } from "./names";
import { txtRecordFound, txtRecordName, txtRecordValue } from "./txt-record";
import { forgetHost } from "./hosts";

export const domainCreateInput = bodyObject({ domain: domainField });
export const domainParam = z.string().meta({
  description: "The domain, as listed (lower case, punycode).",
  maxLength: 253,
  pattern: "^[A-Za-z0-9.-]+$",
});

export const domainRecord = z
  .object({
    domain: z.string(),
    verified: z.boolean(),
    verification: z
      .object({ type: z.literal("TXT"), name: z.string(), value: z.string() })
      .meta({ description: "The DNS record to create at your DNS host; then call verify." }),
    created_at: z.number().int().meta({ description: "Seconds since the epoch.", example: 1795392000 }),
  })
  .meta({ id: "Domain" });
export type DomainRecord = z.infer<typeof domainRecord>;

type Row = { domain: string; token: string; verifiedAt: Date | null; createdAt: Date };
const toRecord = (row: Row): DomainRecord => ({
  domain: row.domain,
  verified: row.verifiedAt !== null,
  verification: { type: "TXT", name: txtRecordName(row.domain), value: txtRecordValue(row.token) },
  created_at: toSeconds(row.createdAt),
});

function requireManager(actor: Actor): string {
  if (actor.library.kind === "team" && actor.role !== "admin")
    throw new DomainError("forbidden", "Only a team admin can manage domains");
  return libraryKey(actor.library);
}

/** A team's domain change on its activity log, with its state before and after (a personal library keeps none). */
async function recordDomainChange(
  tx: Tx,
  actor: Actor,
  action: "domain.added" | "domain.verified" | "domain.deleted",
  domain: string,
) {
  if (actor.library.kind !== "team") return;
  const [before, after] =
    action === "domain.added"
      ? [null, { domain, verified: false }]
      : action === "domain.verified"
        ? [
            { domain, verified: false },
            { domain, verified: true },
          ]
        : [{ domain }, null];
  await recordActivity(
    {
      teamId: actor.library.teamId,
      actor: await actorOf(actor.userId, tx),
      action,
      target: domain,
      detail: { before, after },
    },
    tx,
  );
}

async function findDomain(actor: Actor, input: string) {
  const library = requireManager(actor);
  const spelled = normalDomain(input);
  const row = "domain" in spelled ? await db.domain.findFirst({ where: { domain: spelled.domain, library } }) : null;
  if (!row) throw notFound("Domain not found");
  return row;
}

export async function listDomains(actor: Actor) {
  const rows = await db.domain.findMany({ where: { library: requireManager(actor) }, orderBy: { domain: "asc" } });
  return { domains: rows.map(toRecord) };
}

/** The library's verified domains, for any member's create form (managing them is the admins'). */
export async function verifiedDomainNames(library: Library): Promise<string[]> {
  const rows = await db.domain.findMany({
    where: { library: libraryKey(library), verifiedAt: { not: null } },
    orderBy: { domain: "asc" },
    select: { domain: true },
  });
  return rows.map((row) => row.domain);
}

export async function addDomain(actor: Actor, input: z.infer<typeof domainCreateInput>) {
  const library = requireManager(actor);
  const domain = spelledDomain(input.domain);
  const taken = () => new DomainError("conflict", `Domain already added: ${domain}`);
  if (await db.domain.findUnique({ where: { domain }, select: { domain: true } })) throw taken();
  try {
    const row = await db.$transaction(async (tx) => {
      const created = await tx.domain.create({
        data: { domain, library, token: randomString(32), verifiedAt: null, createdAt: new Date() },
      });
      await recordDomainChange(tx, actor, "domain.added", domain);
      return created;
    });
    return { domain: toRecord(row) };
  } catch (error) {
    throw isUniqueViolation(error) ? taken() : error;
  }
}

/** Looks the TXT record up: verified from then on (a record removed later keeps printed codes working). */
export async function verifyDomain(actor: Actor, input: string) {
  const row = await findDomain(actor, input);
  if (!(await txtRecordFound(row.domain, row.token)))
    throw new DomainError("conflict", `TXT record not found: ${txtRecordName(row.domain)}`);
  if (row.verifiedAt) return { domain: toRecord(row) };
  const verified = await db.$transaction(async (tx) => {
    const saved = await tx.domain.update({ where: { domain: row.domain }, data: { verifiedAt: new Date() } });
    await recordDomainChange(tx, actor, "domain.verified", row.domain);
    return saved;
  });
  await forgetHost(row.domain);
  return { domain: toRecord(verified) };
}

export async function deleteDomain(actor: Actor, input: string) {
  const row = await findDomain(actor, input);
  await db.$transaction(async (tx) => {
    const inUse = await tx.dynamicCode.count({ where: { domain: row.domain, deletedAt: null } });
    if (inUse > 0) throw new DomainError("conflict", `Domain in use by ${inUse} codes`);
    await tx.domain.delete({ where: { domain: row.domain } });
    await recordDomainChange(tx, actor, "domain.deleted", row.domain);
  });
  await forgetHost(row.domain);
  return { domain: row.domain, deleted: true as const };
}

/** A create's `domain` as stored: its spelling, or "" for the service's own base. */
export const spelledDomainOrNone = (domain: string | undefined) => (domain === undefined ? "" : spelledDomain(domain));

type DomainProblem = BatchItemError & { conflict: boolean };

/**
 * Each stored domain ("" none) the library cannot use, by index: one not of the library is
 * `Unknown domain` (400), one not verified yet `Domain not verified` (409).
 */
export async function domainProblems(library: Library, spelled: string[]): Promise<DomainProblem[]> {
  const named = [...new Set(spelled.filter((domain) => domain !== ""))];
  if (named.length === 0) return [];
  const rows = await db.domain.findMany({
    where: { domain: { in: named }, library: libraryKey(library) },
    select: { domain: true, verifiedAt: true },
  });
  const verified = new Map(rows.map((row) => [row.domain, row.verifiedAt !== null]));
  return spelled.flatMap((domain, index): DomainProblem[] => {
    if (domain === "" || verified.get(domain)) return [];
    return verified.has(domain)
      ? [{ index, conflict: true, error: `Domain not verified: ${domain} (create its TXT record, then verify it)` }]
      : [{ index, conflict: false, error: `Unknown domain: ${domain} (add it to the library with POST /v1/domains)` }];
  });
}

/** A create's domains as stored, each a verified domain of the library; else 400 or 409 (a batch's by index). */
export async function usableDomains(
  library: Library,
  domains: (string | undefined)[],
  batch: boolean,
): Promise<string[]> {
  const spelled = domains.map(spelledDomainOrNone);
  const problems = await domainProblems(library, spelled);
  if (problems.length === 0) return spelled;
  const code = problems.every((problem) => problem.conflict) ? "conflict" : "invalid";
  throw batch
    ? new DomainError(
        code,
        "Some domains of the batch cannot be used",
        problems.map(({ index, error }) => ({ index, error })),
      )
    : new DomainError(code, problems[0].error);
}
