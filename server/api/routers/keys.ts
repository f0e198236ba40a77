// API keys on the web pages (session procedures): keys are never made through /v1.
import { TRPCError } from "@trpc/server";
import { generateKey, liveKey, revokeKey } from "../../domain/apiKeys";
import { db } from "../../db";
import { createTRPCRouter, sessionProcedure } from "../trpc";

export const keysRouter = createTRPCRouter({
  personal: sessionProcedure.query(async ({ ctx }) => {
    const user = await db.user.findUniqueOrThrow({ where: { id: ctx.session.userId } });
    return { tier: user.tier, key: await liveKey(user.id, "personal") };
  }),

  generatePersonal: sessionProcedure.mutation(({ ctx }) => generateKey(ctx.session.userId, "personal")),

  revokePersonal: sessionProcedure.mutation(async ({ ctx }) => {
    const key = await liveKey(ctx.session.userId, "personal");
    if (!key || !(await revokeKey(key.id, ctx.session.userId))) {
      throw new TRPCError({ code: "NOT_FOUND", message: "You have no live personal key" });
    }
    return { revoked: true };
  }),
});
