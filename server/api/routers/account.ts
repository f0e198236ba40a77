import { createUser, signupInput } from "../../domain/users";
import { createTRPCRouter, publicProcedure } from "../trpc";

export const accountRouter = createTRPCRouter({
  signup: publicProcedure.input(signupInput).mutation(async ({ input }) => {
    const user = await createUser(input);
    return { email: user.email };
  }),
});
