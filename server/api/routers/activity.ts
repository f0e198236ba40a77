// The activity log on the pages (session procedures): the account's own on /profile, the
// team's on /business (admins). The CSV download is app/activity/[file]/route.ts.
import { z } from "zod";
import { ACTIVITY_SCOPES, activityPage } from "../../activity";
import { createTRPCRouter, sessionProcedure } from "../trpc";

export const activityRouter = createTRPCRouter({
  page: sessionProcedure
    .input(
      z.object({
        scope: z.enum(ACTIVITY_SCOPES, { error: "scope must be one of account, team" }),
        cursor: z.string().optional(),
      }),
    )
    .query(({ ctx, input }) => activityPage(ctx.session.userId, input.scope, input.cursor)),
});
