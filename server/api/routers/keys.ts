// API keys on the web pages (session procedures): keys are never made through /v1.
import { generateKey, liveKey, revokeKey } from "../../keys/apiKeys";
import { accountOf } from "../../accounts/users";
import { notFound } from "../../platform/errors";
import { createTRPCRouter, sessionProcedure } from "../trpc";

export const keysRouter = createTRPCRouter({
  personal: sessionProcedure.query(async ({ ctx }) => {
    const account = await accountOf(ctx.session.userId);
    if (!account) throw notFound("No such account");
    return { tier: account.tier, key: await liveKey(account.id, "personal") };
  }),

  generatePersonal: sessionProcedure.mutation(({ ctx }) => generateKey(ctx.session.userId, "personal")),

  revokePersonal: sessionProcedure.mutation(async ({ ctx }) => {
    const key = await liveKey(ctx.session.userId, "personal");
    if (!key || !(await revokeKey(key.id, ctx.session.userId))) throw notFound("You have no live personal key");
    return { revoked: true };
  }),
});
