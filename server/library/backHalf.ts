// Your own back-half (contract Part 3): a dynamic code chosen at create instead of a generated
// one. Its shape, the words it may not be, and its uniqueness, which the database decides
// (the unique indexes on domain and code, and on library and code; checked first here so that
// the answer names the code).
import { z } from "zod";
import { db } from "../platform/db";
import { DomainError, type BatchItemError } from "../platform/errors";
import { libraryWhere, type Library } from "./library";

/** Any dynamic code, generated (8 characters) or chosen: the shape of `{code}` in a path and of `/q/<code>`. */
const CODE_SHAPE = /^[0-9A-Za-z_-]{1,64}$/;
export const CODE_PATTERN = CODE_SHAPE.source;
export const CODE_MAX_LENGTH = 64;
export const isCodeShaped = (code: string) => CODE_SHAPE.test(code);

const SHAPE_MESSAGE = "code must be 1 to 64 characters of 0-9, A-Z, a-z, _ and -";

/**
 * The literal segments right under /v1/dynqrcodes/ (`batch`, `export`…): a code spelled like one
 * would be shadowed by its route. tests/unit/routes.unit.test.ts holds this list equal to the
 * route table's (server/api/routes.ts, a floor above, which this floor does not import).
 */
export const RESERVED_BACK_HALVES: readonly string[] = ["analytics", "batch", "batch-delete", "export", "images.zip"];

/** The optional `code` of a dynamic create. */
export const backHalfField = z
  .string({ error: SHAPE_MESSAGE })
  .min(1, SHAPE_MESSAGE)
  .max(CODE_MAX_LENGTH, SHAPE_MESSAGE)
  .regex(CODE_SHAPE, SHAPE_MESSAGE)
  .refine((code) => !RESERVED_BACK_HALVES.includes(code), {
    error: (issue) => `code ${String(issue.input)} is reserved: /v1/dynqrcodes/${String(issue.input)} is a route`,
  })
  .meta({
    description:
      "Your own back-half instead of a generated code: 1 to 64 characters of 0-9, A-Z, a-z, _ and -, case-sensitive, unique on its domain and in the library (409 `Code already in use: <code>`); not a word the /v1/dynqrcodes/ routes use (`batch`, `export`…).",
    example: "summer-menu-2026",
  });

export const codeInUse = (code: string) => `Code already in use: ${code}`;

/** A create's chosen code (if any) on its domain ("" for the service's own base). */
export type CodeChoice = { code?: string; domain: string };

/**
 * Each chosen code that is taken on its domain or in the library (the /v1 paths name a code by
 * it alone), or sent again by an earlier item: `Code already in use: <code>` by index.
 */
export async function takenCodeProblems(library: Library, choices: CodeChoice[]): Promise<BatchItemError[]> {
  const chosen = choices.flatMap((choice) => (choice.code === undefined ? [] : [choice.code]));
  if (chosen.length === 0) return [];
  const rows = await db.dynamicCode.findMany({
    where: {
      code: { in: chosen },
      OR: [{ domain: { in: [...new Set(choices.map((choice) => choice.domain))] } }, libraryWhere(library)],
    },
    select: { code: true, domain: true, userId: true, teamId: true },
  });
  const inLibrary = (row: (typeof rows)[number]) =>
    library.kind === "personal" ? row.userId === library.userId && row.teamId === null : row.teamId === library.teamId;
  const taken = new Set(rows.flatMap((row) => [`${row.domain}/${row.code}`, ...(inLibrary(row) ? [row.code] : [])]));
  const seen = new Set<string>();
  return choices.flatMap(({ code, domain }, index) => {
    if (code === undefined) return [];
    const refused = taken.has(`${domain}/${code}`) || taken.has(code) || seen.has(code);
    seen.add(code);
    return refused ? [{ index, error: codeInUse(code) }] : [];
  });
}

/** The same, thrown: 409, in a batch (`batch`) every such item by index. */
export async function refuseTakenCodes(library: Library, choices: CodeChoice[], batch: boolean): Promise<void> {
  const items = await takenCodeProblems(library, choices);
  if (items.length === 0) return;
  throw batch
    ? new DomainError("code_in_use", "Some codes of the batch are already in use", items)
    : new DomainError("code_in_use", items[0].error);
}
