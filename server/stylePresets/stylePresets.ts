// A library's style presets, its brand kits (docs/STYLE-PRESETS.md): named styles that a create
// or PATCH names by `style_preset` instead of sending `style`. The preset's style is copied into
// the code then: editing or deleting a preset never changes a code already made (it may be
// printed). In a team, admins manage presets; every member uses them.
import { z } from "zod";
import { actorOf, recordActivity } from "../activity";
import { shortUrl } from "../library/dynamicRecords";
import type { Actor, Library } from "../library/library";
import { libraryKey } from "../library/libraryKey";
import { bodyObject, styleField, toSeconds, type Style } from "../library/validation";
import { refuseUnreadableStyles } from "../images/readableStyles";
import { db, isUniqueViolation, type Tx } from "../platform/db";
import { DomainError, fromZodIssues, notFound } from "../platform/errors";
import { timeOrderedId } from "../platform/ids";
import { shown } from "../teams/pendingChanges";
import { presetName, presetNameParam } from "./presetFields";

export const MAX_PRESETS = 100;

export const presetCreateInput = bodyObject({ name: presetName("name"), style: styleField }).meta({
  example: { name: "Brand blue", style: { foreground: "#0b3d91", module_shape: "rounded", finder_shape: "rounded" } },
});
export const presetPatchInput = bodyObject({
  name: presetNameParam,
  new_name: presetName("new_name").optional(),
  style: styleField.optional(),
}).meta({ example: { style: { foreground: "#0b3d91", frame: { text: "Scan me", color: "#0b3d91" } } } });

export const presetRecord = z
  .object({
    name: z.string(),
    style: styleField,
    created_at: z.number().int().meta({ description: "Seconds since the epoch.", example: 1795392000 }),
    updated_at: z.number().int().meta({ description: "Seconds since the epoch.", example: 1795392000 }),
  })
  .meta({ id: "StylePreset" });
export type PresetRecord = z.infer<typeof presetRecord>;

type Row = { name: string; style: string; createdAt: Date; updatedAt: Date };
const toRecord = (row: Row): PresetRecord => ({
  name: row.name,
  style: JSON.parse(row.style),
  created_at: toSeconds(row.createdAt),
  updated_at: toSeconds(row.updatedAt),
});

function requireManager(actor: Actor): string {
  if (actor.library.kind === "team" && actor.role !== "admin")
    throw new DomainError("forbidden", "Only a team admin can manage style presets");
  return libraryKey(actor.library);
}

/** A preset's style is checked as a code's: it must draw a scannable code of a typical short link. */
const SAMPLE_TEXT = () => shortUrl("AbCd1234", "");
const refuseUnreadable = (style: Style) => refuseUnreadableStyles([{ text: SAMPLE_TEXT(), style }]);

/** A team's preset change on its activity log, with its state before and after (a personal library keeps none). */
async function recordPresetChange(
  tx: Tx,
  actor: Actor,
  action: "style_preset.created" | "style_preset.updated" | "style_preset.deleted",
  before: PresetRecord | null,
  after: PresetRecord | null,
) {
  if (actor.library.kind !== "team") return;
  const state = (r: PresetRecord | null) => r && { name: r.name, style: shown("style", r.style) };
  await recordActivity(
    {
      teamId: actor.library.teamId,
      actor: await actorOf(actor.userId, tx),
      action,
      target: (after ?? before)!.name,
      detail: { before: state(before), after: state(after) },
    },
    tx,
  );
}

const taken = (name: string) => new DomainError("conflict", `Style preset already exists: ${name}`);

async function findPreset(library: string, name: string) {
  const row = await db.stylePreset.findUnique({ where: { library_name: { library, name } } });
  if (!row) throw notFound("Style preset not found");
  return row;
}

/** Every preset of the library, by name: any member may list them (a create form offers them). */
export async function listPresets(library: Library) {
  const rows = await db.stylePreset.findMany({ where: { library: libraryKey(library) }, orderBy: { name: "asc" } });
  return { style_presets: rows.map(toRecord) };
}

export async function getPreset(library: Library, name: string) {
  return { style_preset: toRecord(await findPreset(libraryKey(library), name)) };
}

export async function createPreset(actor: Actor, input: z.infer<typeof presetCreateInput>) {
  const library = requireManager(actor);
  if (await db.stylePreset.findUnique({ where: { library_name: { library, name: input.name } } }))
    throw taken(input.name);
  if ((await db.stylePreset.count({ where: { library } })) >= MAX_PRESETS)
    throw new DomainError("conflict", `A library holds at most ${MAX_PRESETS} style presets: delete one first`);
  await refuseUnreadable(input.style);
  const now = new Date();
  try {
    const row = await db.$transaction(async (tx) => {
      const created = await tx.stylePreset.create({
        data: {
          id: timeOrderedId("sp"),
          library,
          name: input.name,
          style: JSON.stringify(input.style),
          createdAt: now,
          updatedAt: now,
        },
      });
      await recordPresetChange(tx, actor, "style_preset.created", null, toRecord(created));
      return created;
    });
    return { style_preset: toRecord(row) };
  } catch (error) {
    throw isUniqueViolation(error) ? taken(input.name) : error;
  }
}

/** Renames it or replaces its style (whole); codes made with it keep the style they were given. */
export async function updatePreset(actor: Actor, input: z.infer<typeof presetPatchInput>) {
  const library = requireManager(actor);
  if (input.new_name === undefined && input.style === undefined)
    throw new DomainError("invalid", "Send at least one of new_name, style");
  const row = await findPreset(library, input.name);
  if (input.style !== undefined) await refuseUnreadable(input.style);
  const newName = input.new_name ?? row.name;
  try {
    const saved = await db.$transaction(async (tx) => {
      const updated = await tx.stylePreset.update({
        where: { id: row.id },
        data: {
          name: newName,
          ...(input.style !== undefined ? { style: JSON.stringify(input.style) } : {}),
          updatedAt: new Date(),
        },
      });
      await recordPresetChange(tx, actor, "style_preset.updated", toRecord(row), toRecord(updated));
      return updated;
    });
    return { style_preset: toRecord(saved) };
  } catch (error) {
    throw isUniqueViolation(error) ? taken(newName) : error;
  }
}

export async function deletePreset(actor: Actor, name: string) {
  const row = await findPreset(requireManager(actor), name);
  await db.$transaction(async (tx) => {
    await tx.stylePreset.delete({ where: { id: row.id } });
    await recordPresetChange(tx, actor, "style_preset.deleted", toRecord(row), null);
  });
  return { name: row.name, deleted: true as const };
}

type Styled = { style?: Style; style_preset?: string };

/**
 * The items with each named preset's style copied into `style` (`style_preset` dropped): a
 * name the library does not hold is 400 `Unknown style preset: <name>`, `style` sent with it 400;
 * a batch's refusals by index under `batch`.
 */
export async function withPresetStyles<T extends Styled>(
  library: Library,
  items: T[],
  batch: "qrcodes" | "dynqrcodes" | null,
): Promise<(Omit<T, "style_preset"> & { style?: Style })[]> {
  const names = [...new Set(items.flatMap((item) => (item.style_preset === undefined ? [] : [item.style_preset])))];
  if (names.length === 0) return items;
  const rows = await db.stylePreset.findMany({
    where: { library: libraryKey(library), name: { in: names } },
    select: { name: true, style: true },
  });
  const styles = new Map(rows.map((row) => [row.name, JSON.parse(row.style) as Style]));
  const at = (index: number) => (batch ? [batch, index, "style_preset"] : ["style_preset"]);
  const issues = items.flatMap((item, index) => {
    if (item.style_preset === undefined) return [];
    if (item.style !== undefined) return [{ path: at(index), message: "Send style or style_preset, not both" }];
    if (!styles.has(item.style_preset))
      return [{ path: at(index), message: `Unknown style preset: ${item.style_preset}` }];
    return [];
  });
  if (issues.length > 0) throw fromZodIssues(issues);
  return items.map(({ style_preset, ...item }) =>
    style_preset === undefined ? item : { ...item, style: styles.get(style_preset) },
  );
}
