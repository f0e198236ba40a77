// The library pages' CSV import (session procedures; server/library/libraryImport.ts): rows
// checked before anything is created, then created batch by batch, each once.
import { actorFor } from "../../library/libraryItems";
import { checkImportRows, importBatch, importBatchInput, importCheckInput } from "../../library/libraryImport";
import { inLabelWords } from "../labels";
import { createTRPCRouter, sessionProcedure } from "../trpc";

export const libraryImportRouter = createTRPCRouter({
  /** Every row's problem, by line, in the labels' words; creates nothing. */
  check: sessionProcedure.input(importCheckInput).mutation(async ({ ctx, input }) => ({
    problems: (
      await checkImportRows(await actorFor(ctx.session.userId, input.scope, ctx.servedHosts), input.kind, input.rows)
    ).map((p) => ({ line: p.line, error: inLabelWords(p.error), ...(p.existing ? { existing: true } : {}) })),
  })),

  /** One batch of up to 50 rows, all or nothing; the same file and position again replays it. */
  batch: sessionProcedure
    .input(importBatchInput)
    .mutation(async ({ ctx, input }) =>
      importBatch(await actorFor(ctx.session.userId, input.scope, ctx.servedHosts), input),
    ),
});
