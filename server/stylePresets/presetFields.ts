// The fields that name a style preset (./stylePresets.ts), apart so that the code records'
// schemas take `style_preset` without loading the presets' use cases.
import { z } from "zod";

export const PRESET_NAME_MAX = 64;
/** Letters, digits, spaces, `.`, `_`, `-`; a letter or digit first, no space last: safe in a path and a CSV cell. */
const NAME = /^[\p{L}\p{N}](?:[\p{L}\p{N} ._-]{0,62}[\p{L}\p{N}._-])?$/u;
// The document's pattern is a looser one without Unicode classes: `\p{L}` reads as other
// characters in a JSON Schema validator without the `u` flag (Spectral refused "Brand blue").
// The description gives the whole rule.
const NAME_BOUNDS = { minLength: 1, maxLength: PRESET_NAME_MAX, pattern: "^[^\\s/]([^/]{0,62}[^\\s/])?$" };
const nameProblem = `must be 1 to ${PRESET_NAME_MAX} characters: letters, digits, spaces, ".", "_", "-", starting with a letter or digit and not ending with a space`;

export const presetName = (field: string) =>
  z
    .string({ error: `${field} must be a string` })
    // A megabyte is refused by its length before the pattern reads it.
    .refine((value) => value.length <= PRESET_NAME_MAX * 2 && NAME.test(value), `${field} ${nameProblem}`)
    .meta({
      description: `A style preset's name: ${nameProblem}. Case-sensitive.`,
      example: "Brand blue",
      ...NAME_BOUNDS,
    });

/** The field a create or PATCH names a preset with. */
export const stylePresetField = presetName("style_preset").meta({
  description:
    "The name of a style preset of the library (GET /v1/style-presets): its style is copied into the code (later edits of the preset do not change it). Not together with `style`.",
  example: "Brand blue",
  ...NAME_BOUNDS,
});
export const presetNameParam = z
  .string()
  .meta({ description: "The preset's name (URL-encoded).", example: "Brand blue", ...NAME_BOUNDS });
