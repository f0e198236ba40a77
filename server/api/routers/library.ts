// The web library's calls (session procedures): /library and the team library on /business.
import { z } from "zod";
import { actorFor, MAX_PASTED_LENGTH, libraryKindField, libraryPage } from "../../library/libraryItems";
import {
  createFromLines,
  createItem,
  previewItemStyle,
  removeItem,
  saveStyle,
  updateItem,
} from "../../library/libraryChanges";
import { dynamicPatchInput } from "../../library/dynamicRecords";
import type { LastSeen } from "../../library/staleSave";
import { itemKind } from "../../teams/teams";
import { createTRPCRouter, sessionProcedure } from "../trpc";

/**
 * Which library a call acts on (a LibraryKind). Its field keeps the name `scope` on the wire:
 * the pages' calls, and the integration tests that make them by hand, send it so.
 */
const inLibrary = z.object({ scope: libraryKindField });
const item = inLibrary.extend({ kind: itemKind, id: z.string() });
/** The record's updated_at as the form loaded it: a save after another one is refused (README, "Stale saves"). */
const updatedAt = z.iso.datetime({ message: "updatedAt must be an ISO 8601 time" }).optional();
const seenOnPage = (at: string | undefined): LastSeen | undefined =>
  at === undefined ? undefined : { updatedAt: new Date(at), from: "page" };

export const libraryRouter = createTRPCRouter({
  page: sessionProcedure
    .input(
      inLibrary.extend({
        search: z.string().max(200).optional(),
        page: z.number().int().min(1).optional(),
        kind: itemKind.optional(),
        // The review queue on /business: the team library's drafts.
        drafts: z.boolean().optional(),
      }),
    )
    .query(async ({ ctx, input }) => libraryPage(await actorFor(ctx.session.userId, input.scope, null), input)),

  create: sessionProcedure
    .input(
      inLibrary.extend({
        kind: itemKind,
        name: z.string(),
        // A static code of another type sends its type and content instead (docs/TYPES.md).
        url: z.string().optional(),
        code: z.string().optional(),
        type: z.string().optional(),
        content: z.unknown().optional(),
        domain: z.string().optional(),
        style_preset: z.string().optional(),
      }),
    )
    .mutation(async ({ ctx, input }) =>
      createItem(await actorFor(ctx.session.userId, input.scope, ctx.servedHosts), input.kind, input).then(() => ({
        created: 1,
      })),
    ),

  /** Pasted lines `name, url`: all created or none. */
  createMany: sessionProcedure
    .input(inLibrary.extend({ kind: itemKind, lines: z.string().max(MAX_PASTED_LENGTH) }))
    .mutation(async ({ ctx, input }) => ({
      created: await createFromLines(
        await actorFor(ctx.session.userId, input.scope, ctx.servedHosts),
        input.kind,
        input.lines,
      ),
    })),

  update: sessionProcedure
    .input(inLibrary.extend({ patch: dynamicPatchInput, updatedAt }))
    .mutation(async ({ ctx, input }) =>
      updateItem(
        await actorFor(ctx.session.userId, input.scope, ctx.servedHosts),
        input.patch,
        seenOnPage(input.updatedAt),
      ),
    ),

  remove: sessionProcedure
    .input(item)
    .mutation(async ({ ctx, input }) =>
      removeItem(await actorFor(ctx.session.userId, input.scope, null), input.kind, input.id),
    ),

  /** The style editor's live preview and decode check (a mutation: a logo does not fit in a URL). */
  previewStyle: sessionProcedure
    .input(item.extend({ style: z.unknown() }))
    .mutation(async ({ ctx, input }) =>
      previewItemStyle(await actorFor(ctx.session.userId, input.scope, null), input.kind, input.id, input.style),
    ),

  saveStyle: sessionProcedure
    .input(item.extend({ style: z.unknown(), updatedAt }))
    .mutation(async ({ ctx, input }) => ({
      style: await saveStyle(
        await actorFor(ctx.session.userId, input.scope, null),
        input.kind,
        input.id,
        input.style,
        seenOnPage(input.updatedAt),
      ),
    })),
});
