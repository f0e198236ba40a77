// /v1/style-presets: the library's brand kits (docs/STYLE-PRESETS.md); and the same for the web
// pages (/profile for the personal library, /business for the team's), through the same
// domain functions. Every member lists them; in a team only admins change them.
import { z } from "zod";
import {
  createPreset,
  deletePreset,
  getPreset,
  listPresets,
  presetCreateInput,
  presetPatchInput,
  presetRecord,
  updatePreset,
} from "../../stylePresets/stylePresets";
import { presetNameParam } from "../../stylePresets/presetFields";
import { actorFor, libraryKindField } from "../../library/libraryItems";
import { apiKeyProcedure, createTRPCRouter, sessionProcedure } from "../trpc";

const TAGS = ["Style presets"];
const byName = z.object({ name: presetNameParam });
const onePreset = z.object({ style_preset: presetRecord });

export const stylePresetsRouter = createTRPCRouter({
  list: apiKeyProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/style-presets",
        tags: TAGS,
        summary: "List the library's style presets (brand kits), by name",
      },
    })
    .input(z.object({}))
    .output(z.object({ style_presets: z.array(presetRecord) }))
    .query(({ ctx }) => listPresets(ctx.principal.library)),

  create: apiKeyProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/style-presets",
        tags: TAGS,
        summary: "Save a style under a name (a brand kit)",
        description:
          "The style is checked as a code's style is (400 as for `style`). A name is unique in the library (409 `Style preset already exists: <name>`); a library holds at most 100. Creates and PATCHes of codes then send `style_preset: \"<name>\"` instead of `style`: the preset's style is copied into the code. In a team, admins only.",
        successDescription: "Created",
      },
      created: true,
    })
    .input(presetCreateInput)
    .output(onePreset)
    .mutation(({ ctx, input }) => createPreset(ctx.principal, input)),

  get: apiKeyProcedure
    .meta({ openapi: { method: "GET", path: "/style-presets/{name}", tags: TAGS, summary: "Read a style preset" } })
    .input(byName)
    .output(onePreset)
    .query(({ ctx, input }) => getPreset(ctx.principal.library, input.name)),

  update: apiKeyProcedure
    .meta({
      openapi: {
        method: "PATCH",
        path: "/style-presets/{name}",
        tags: TAGS,
        summary: "Rename a style preset (`new_name`) or replace its style",
        description:
          "The style sent replaces the preset's whole. Codes made with the preset keep the style they were given (printed codes do not change); PATCH a code with `style_preset` to give it the new style. In a team, admins only.",
      },
    })
    .input(presetPatchInput)
    .output(onePreset)
    .mutation(({ ctx, input }) => updatePreset(ctx.principal, input)),

  remove: apiKeyProcedure
    .meta({
      openapi: {
        method: "DELETE",
        path: "/style-presets/{name}",
        tags: TAGS,
        summary: "Delete a style preset (codes made with it keep their style)",
      },
    })
    .input(byName)
    .output(z.object({ name: z.string(), deleted: z.literal(true) }))
    .mutation(({ ctx, input }) => deletePreset(ctx.principal, input.name)),
});

const inLibrary = z.object({ scope: libraryKindField });
const actor = (userId: string, scope: z.infer<typeof libraryKindField>) => actorFor(userId, scope, null);

/** The pages' calls: the account's personal library or its team's, as the scope says. */
export const stylePresetPagesRouter = createTRPCRouter({
  /** Any member: the create form offers them. */
  list: sessionProcedure
    .input(inLibrary)
    .query(async ({ ctx, input }) => listPresets((await actor(ctx.session.userId, input.scope)).library)),
  create: sessionProcedure
    .input(inLibrary.extend({ body: presetCreateInput }))
    .mutation(async ({ ctx, input }) => createPreset(await actor(ctx.session.userId, input.scope), input.body)),
  update: sessionProcedure
    .input(inLibrary.extend({ body: presetPatchInput }))
    .mutation(async ({ ctx, input }) => updatePreset(await actor(ctx.session.userId, input.scope), input.body)),
  remove: sessionProcedure
    .input(inLibrary.extend({ name: z.string() }))
    .mutation(async ({ ctx, input }) => deletePreset(await actor(ctx.session.userId, input.scope), input.name)),
});
