// An integrator's own data on a record, static or dynamic (contract Part 3, "Reading, finding and
// changing in bulk"): `metadata`, string values never interpreted, and `external_id`, unique in
// the library (README "Metadata and external ids").
import { z } from "zod";
import { db, isUniqueViolation } from "../platform/db";
import { DomainError } from "../platform/errors";
import { libraryWhere, type Library } from "./library";

export const MAX_METADATA_KEYS = 20;
export const MAX_METADATA_KEY_LENGTH = 40;
export const MAX_METADATA_VALUE_LENGTH = 500;
export const MAX_EXTERNAL_ID_LENGTH = 200;

const METADATA_SHAPE =
  `metadata must be an object of at most ${MAX_METADATA_KEYS} keys (1 to ${MAX_METADATA_KEY_LENGTH} characters) ` +
  `with string values of at most ${MAX_METADATA_VALUE_LENGTH} characters`;

/** Why `value` is not acceptable metadata, or null: the key count before any key or value is looked at. */
function metadataProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return METADATA_SHAPE;
  const keys = Object.keys(value);
  if (keys.length > MAX_METADATA_KEYS) return `metadata must hold at most ${MAX_METADATA_KEYS} keys`;
  for (const key of keys) {
    if (key.length < 1 || key.length > MAX_METADATA_KEY_LENGTH || CONTROL.test(key))
      return `metadata keys must be 1 to ${MAX_METADATA_KEY_LENGTH} characters, no control characters`;
    const entry = (value as Record<string, unknown>)[key];
    if (typeof entry !== "string") return `metadata.${key} must be a string`;
    if (entry.length > MAX_METADATA_VALUE_LENGTH)
      return `metadata.${key} must be at most ${MAX_METADATA_VALUE_LENGTH} characters`;
  }
  return null;
}

const metadataDoc = {
  id: "Metadata",
  description: `Your own string values, never interpreted: at most ${MAX_METADATA_KEYS} keys of 1 to ${MAX_METADATA_KEY_LENGTH} characters, values of at most ${MAX_METADATA_VALUE_LENGTH} characters. Records show \`{}\` when there is none.`,
  example: { order: "4711", crm_id: "C-93" },
  maxProperties: MAX_METADATA_KEYS,
};
/** No control characters (line breaks, tabs, NUL), as in names. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const PRINTABLE_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f]+$";

const metadataSchema = z
  .record(
    z.string().min(1).max(MAX_METADATA_KEY_LENGTH).meta({ pattern: PRINTABLE_PATTERN }),
    z.string().max(MAX_METADATA_VALUE_LENGTH),
  )
  .meta(metadataDoc);

/** In a create or a PATCH: checked by hand first so that a megabyte of keys costs one count. */
export const metadataField = z.preprocess((value, ctx) => {
  const problem = metadataProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem, input: value });
  return value;
}, metadataSchema);

/** Printable: no control, format, private-use or unassigned character, no line or paragraph separator. */
const NOT_PRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u;
const EXTERNAL_ID_RULE = `external_id must be 1 to ${MAX_EXTERNAL_ID_LENGTH} printable characters`;

/** The rule, without what the document says of a field: a record's field and the lists' filter say it each their way. */
const externalIdRule = z
  .string({ error: `${EXTERNAL_ID_RULE} (a string)` })
  // Characters counted only when there can be 200 or fewer (two UTF-16 units a character at most).
  .refine((value) => value.length <= 2 * MAX_EXTERNAL_ID_LENGTH && [...value].length <= MAX_EXTERNAL_ID_LENGTH, {
    error: EXTERNAL_ID_RULE,
    abort: true,
  })
  .refine((value) => value.length >= 1 && !NOT_PRINTABLE.test(value), { error: EXTERNAL_ID_RULE });
const EXTERNAL_ID_BOUNDS = { minLength: 1, maxLength: MAX_EXTERNAL_ID_LENGTH, pattern: PRINTABLE_PATTERN };

export const externalIdField = externalIdRule.meta({
  description: `Your own id of the record, 1 to ${MAX_EXTERNAL_ID_LENGTH} printable characters, unique within the library (409 \`external_id already used: <value>\`); null when none.`,
  example: "order-4711",
  ...EXTERNAL_ID_BOUNDS,
});

/** The lists' filter: no example (Swagger UI's Try it out would fill it in and filter the list unasked). */
export const externalIdFilter = externalIdRule.meta({
  description: "Only the code with this external_id (exact, case-sensitive), e.g. `order-4711`.",
  ...EXTERNAL_ID_BOUNDS,
});

/** The create fields (absent: none). */
export const extrasInput = { metadata: metadataField.optional(), external_id: externalIdField.optional() };
/** The PATCH fields: null clears. */
export const extrasPatch = {
  metadata: metadataField.nullable().optional(),
  external_id: externalIdField.nullable().optional(),
};
/** As records show them. */
export const extrasRecord = {
  metadata: metadataSchema,
  external_id: z.string().nullable().meta({ description: "Your own id of the record; null when none." }),
};

type ExtrasInput = { metadata?: Record<string, string> | null; external_id?: string | null };
export type ExtrasColumns = { metadata: string | null; externalId: string | null };

/** The columns a create or PATCH writes: only the fields sent (null and `{}` store none). */
export const extrasColumnsOf = (input: ExtrasInput): Partial<ExtrasColumns> => ({
  ...(input.metadata !== undefined
    ? { metadata: input.metadata && Object.keys(input.metadata).length > 0 ? JSON.stringify(input.metadata) : null }
    : {}),
  ...(input.external_id !== undefined ? { externalId: input.external_id } : {}),
});

export const extrasRecordOf = (row: Partial<ExtrasColumns>) => ({
  metadata: row.metadata ? (JSON.parse(row.metadata) as Record<string, string>) : {},
  external_id: row.externalId ?? null,
});

const usedMessage = (value: string) => `external_id already used: ${value}`;

/**
 * 409 when an item's external_id is another record's in the library, or an earlier item's.
 * `self`: the row an item changes (its own id is no conflict); `batch`: the items' array,
 * whose conflicts are listed by index. The unique indexes stay the last word on a race.
 */
export async function refuseUsedExternalIds(
  table: "staticCode" | "dynamicCode",
  library: Library,
  items: { externalId: string | null | undefined; self?: string }[],
  batch: string | null,
): Promise<void> {
  const wanted = [...new Set(items.map((item) => item.externalId).filter((v): v is string => !!v))];
  if (wanted.length === 0) return;
  const where = { ...libraryWhere(library), externalId: { in: wanted } };
  const select = { id: true, externalId: true } as const;
  const rows =
    table === "staticCode"
      ? await db.staticCode.findMany({ where, select })
      : await db.dynamicCode.findMany({ where, select });
  const holder = new Map(rows.map((row) => [row.externalId, row.id]));
  const seen = new Set<string>();
  const conflicts: { index: number; error: string }[] = [];
  items.forEach(({ externalId, self }, index) => {
    if (!externalId) return;
    const owner = holder.get(externalId);
    if (seen.has(externalId) || (owner !== undefined && owner !== self))
      conflicts.push({ index, error: usedMessage(externalId) });
    seen.add(externalId);
  });
  if (conflicts.length === 0) return;
  throw new DomainError("conflict", conflicts[0].error, batch ? conflicts : undefined);
}

/** A unique index's refusal (a request between the check and the write took the external_id) as the 409 it is. */
export const externalIdRace =
  (...args: Parameters<typeof refuseUsedExternalIds>) =>
  async (error: unknown): Promise<never> => {
    if (isUniqueViolation(error)) await refuseUsedExternalIds(...args);
    throw error;
  };
