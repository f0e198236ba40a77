import { deleteAccount, deletionInput } from "../../domain/accountDeletion";
import { createUser, signupInput } from "../../domain/users";
import { createTRPCRouter, publicProcedure, sessionProcedure } from "../trpc";

export const accountRouter = createTRPCRouter({
  signup: publicProcedure.input(signupInput).mutation(async ({ input }) => {
    const user = await createUser(input);
    return { email: user.email };
  }),
  /** Delete account on /profile: the typed email and the password confirm it. */
  delete: sessionProcedure.input(deletionInput).mutation(({ ctx, input }) => deleteAccount(ctx.session.userId, input).then(() => ({ deleted: true as const }))),
});
