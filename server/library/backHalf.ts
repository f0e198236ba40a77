// Your own back-half (contract Part 3): a dynamic code chosen at create instead of a generated
// one. Its shape, the words it may not be, and its uniqueness, which the database decides
// (the unique index on `code`; checked first here so that the answer names the code).
import { z } from "zod";
import { db } from "../platform/db";
import { DomainError, type BatchItemError } from "../platform/errors";

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
      "Your own back-half instead of a generated code: 1 to 64 characters of 0-9, A-Z, a-z, _ and -, case-sensitive, unique (409 `Code already in use: <code>`); not a word the /v1/dynqrcodes/ routes use (`batch`, `export`…).",
    example: "summer-menu-2026",
  });

export const codeInUse = (code: string) => `Code already in use: ${code}`;

/** Each chosen code that is taken, or sent again by an earlier item: `Code already in use: <code>` by index. `codes[i]` is item i's chosen code, if any. */
export async function takenCodeProblems(codes: (string | undefined)[]): Promise<BatchItemError[]> {
  const chosen = codes.filter((code): code is string => code !== undefined);
  if (chosen.length === 0) return [];
  const rows = await db.dynamicCode.findMany({ where: { code: { in: chosen } }, select: { code: true } });
  const taken = new Set(rows.map((row) => row.code));
  const seen = new Set<string>();
  return codes.flatMap((code, index) => {
    if (code === undefined) return [];
    const refused = taken.has(code) || seen.has(code);
    seen.add(code);
    return refused ? [{ index, error: codeInUse(code) }] : [];
  });
}

/** The same, thrown: 409, in a batch (`batch`) every such item by index. */
export async function refuseTakenCodes(codes: (string | undefined)[], batch: boolean): Promise<void> {
  const items = await takenCodeProblems(codes);
  if (items.length === 0) return;
  throw batch
    ? new DomainError("code_in_use", "Some codes of the batch are already in use", items)
    : new DomainError("code_in_use", items[0].error);
}
