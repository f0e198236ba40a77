// Review covers changes to published team codes (contract Part 3; README "Review of changes"). A
// team code is published once an admin made it active, and stays so when paused or set back to
// draft. A writer's change to where a published code leads (HELD_FIELDS) does not apply: it is
// kept as the code's pending change, the short link serving what was approved meanwhile, until
// an admin approves or rejects it (./changeReview.ts). A writer's later held change replaces the
// pending one. Name, style and stopping the code apply at once; admins' changes always do.
import { z } from "zod";
import type { ActivityValue } from "../activity";
import { rulesRecord, type Target, type Utm } from "../rules";
import type { Actor } from "../library/library";
import { DYNAMIC_TYPES, hostedContentField, type DynamicType } from "../hosted/content";

/** What a writer's PATCH of a published team code holds back for review. */
export const HELD_FIELDS = [
  "type",
  "destination_url",
  "content",
  "targets",
  "utm",
  "expires_at",
  "expired_url",
  "password",
] as const;
export type HeldInput = Partial<{
  /** Sent with destination_url and content whenever a vcard or page code is involved (docs/TYPES.md). */
  type: DynamicType;
  destination_url: string | null;
  content: unknown;
  targets: Target[] | null;
  utm: Utm | null;
  expires_at: number | null;
  expired_url: string | null;
  password: string | null;
}>;

export const pendingChangeRecord = z
  .object({
    fields: z
      .object({
        type: z.enum(DYNAMIC_TYPES).optional(),
        destination_url: z.string().nullable().optional(),
        content: hostedContentField.optional(),
        targets: rulesRecord.targets.optional(),
        utm: rulesRecord.utm.optional(),
        expires_at: rulesRecord.expires_at.optional(),
        expired_url: rulesRecord.expired_url.optional(),
        password_set: z.boolean().optional().meta({
          description: "true: the change sets a password; false: it removes it (the password itself is never shown).",
        }),
      })
      .meta({ description: "The new values the change would give the code, as its PATCH sent them." }),
    by: z.string().meta({ description: "The email of the member who made the change." }),
    created_at: z.number().int().meta({ description: "Seconds since the epoch.", example: 1795392000 }),
  })
  .meta({
    id: "PendingChange",
    description:
      "A writer's change to where a published team code leads, waiting for an admin's review; the code keeps its live values until an admin approves it.",
  });
export type PendingChangeRecord = z.infer<typeof pendingChangeRecord>;
export type PendingFields = PendingChangeRecord["fields"];

/** The last rejected change of a code (its changeRejection column), as the team library shows it until the next change. */
export type ChangeRejection = { reason: string; by: string; at: string; fields: PendingFields };
export const changeRejectionOf = (text: string | null | undefined): ChangeRejection | null =>
  text ? (JSON.parse(text) as ChangeRejection) : null;

/** The pendingChange column: the record's parts, the member's id, and a new password's hash. */
type StoredChange = PendingChangeRecord & { by_id: string; password_hash?: string | null };

export const storedChangeOf = (text: string | null | undefined): StoredChange | null =>
  text ? (JSON.parse(text) as StoredChange) : null;

/** The pending change as records show it; null when there is none. */
export function pendingChangeOf(text: string | null | undefined): PendingChangeRecord | null {
  const stored = storedChangeOf(text);
  return stored && { fields: stored.fields, by: stored.by, created_at: stored.created_at };
}

/**
 * Whether an admin must decide for `actor` on a team code: a writer acting on a published one
 * (its changes to where it leads wait for review; it may not delete it).
 */
export const needsAdmin = (actor: Pick<Actor, "library" | "role">, published: boolean) =>
  actor.library.kind === "team" && actor.role !== "admin" && published;

/** The fields of `input` that a writer's PATCH holds back, or null when it sends none. */
export function heldPart(input: HeldInput): PendingFields | null {
  const fields: PendingFields = {};
  for (const name of HELD_FIELDS) {
    const value = input[name];
    if (value === undefined) continue;
    if (name === "password") fields.password_set = value !== null;
    else Object.assign(fields, { [name]: value });
  }
  return Object.keys(fields).length > 0 ? fields : null;
}

/** The column of a held change: `passwordHash`, the hash of the password it sets (hashed before the transaction). */
export const storedChange = (
  fields: PendingFields,
  by: { id: string; email: string },
  passwordHash: string | null | undefined,
  at: Date,
): string =>
  JSON.stringify({
    fields,
    by: by.email,
    by_id: by.id,
    created_at: Math.floor(at.getTime() / 1000),
    ...(fields.password_set ? { password_hash: passwordHash } : {}),
  } satisfies StoredChange);

/** The columns an approved change writes. */
export function approvedColumns(stored: StoredChange) {
  const { fields } = stored;
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  return {
    ...(fields.destination_url !== undefined ? { destinationUrl: fields.destination_url ?? "" } : {}),
    ...(fields.type !== undefined
      ? {
          type: fields.type,
          content: fields.content === undefined || fields.content === null ? null : JSON.stringify(fields.content),
        }
      : {}),
    ...(fields.targets !== undefined ? { targets: json(fields.targets) } : {}),
    ...(fields.utm !== undefined ? { utm: json(fields.utm) } : {}),
    ...(fields.expires_at !== undefined
      ? { expiresAt: fields.expires_at === null ? null : new Date(fields.expires_at * 1000) }
      : {}),
    ...(fields.expired_url !== undefined ? { expiredUrl: fields.expired_url } : {}),
    ...(fields.password_set !== undefined
      ? { passwordHash: fields.password_set ? (stored.password_hash ?? null) : null }
      : {}),
  };
}

// ---- before and after, for the activity log --------------------------------------------------

/** The fields of a record an entry compares (a static code's url, a dynamic code's live values). */
const COMPARED = [
  "name",
  "url",
  "destination_url",
  "content",
  "status",
  "style",
  "targets",
  "utm",
  "expires_at",
  "expired_url",
  "password_protected",
  "metadata",
  "external_id",
] as const;
// `type` too: a pending change of a hosted code shows it beside its content (a code's type alone is not logged).
type Compared = Partial<Record<(typeof COMPARED)[number] | "type", unknown>>;

/** A value as an entry keeps it: a style's logo (up to 64 KiB) by its size only. */
export function shown(name: string, value: unknown): ActivityValue {
  if (name === "style" && value && typeof value === "object" && "logo" in value) {
    const { logo, ...rest } = value as { logo: string };
    return { ...rest, logo: `(image, ${logo.length} characters)` } as ActivityValue;
  }
  return (value ?? null) as ActivityValue;
}

/** No metadata is `{}` in a record: the same as none, so a code made or deleted without any logs no `metadata`. */
const noneAsNull = (name: string, value: unknown) =>
  name === "metadata" && value !== null && typeof value === "object" && Object.keys(value).length === 0
    ? null
    : (value ?? null);

/** The fields whose values differ between two states of a record, each side's values; null when none does. */
export function changedFields(
  before: Compared,
  after: Compared,
): { before: Record<string, ActivityValue>; after: Record<string, ActivityValue> } | null {
  const names = COMPARED.filter(
    (name) => JSON.stringify(noneAsNull(name, before[name])) !== JSON.stringify(noneAsNull(name, after[name])),
  );
  if (names.length === 0) return null;
  const pick = (record: Compared) => Object.fromEntries(names.map((name) => [name, shown(name, record[name])]));
  return { before: pick(before), after: pick(after) };
}

/** A pending change's fields and what the code holds for them now (password_set against password_protected). */
export function pendingComparison(
  live: Compared,
  fields: PendingFields,
): { before: Record<string, ActivityValue>; after: Record<string, ActivityValue> } {
  const names = Object.keys(fields) as (keyof PendingFields)[];
  return {
    before: Object.fromEntries(
      names.map((name) =>
        name === "password_set"
          ? ["password_protected", live.password_protected ?? false]
          : [name, shown(name, live[name])],
      ),
    ) as Record<string, ActivityValue>,
    after: fields as Record<string, ActivityValue>,
  };
}
