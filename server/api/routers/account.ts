import {
  changeEmailInput,
  changePassword,
  changePasswordInput,
  confirmEmailChange,
  logOutEverywhere,
  requestEmailChange,
  undoEmailChange,
} from "../../accounts/accounts";
import { tokenInput } from "../../accounts/accountChecks";
import {
  requestPasswordReset,
  resetPassword,
  resetPasswordInput,
  resetRequestInput,
} from "../../accounts/passwordReset";
import { resendVerification, signUp, verifyEmail } from "../../accounts/signup";
import { deleteAccount, deletionInput } from "../../accounts/accountDeletion";
import { signupInput } from "../../accounts/users";
import { createTRPCRouter, publicProcedure, sessionProcedure } from "../trpc";

const UNKNOWN = "unknown";

export const accountRouter = createTRPCRouter({
  // The same answer whether or not the address has an account.
  signup: publicProcedure.input(signupInput).mutation(async ({ ctx, input }) => {
    await signUp(input, ctx.clientAddress ?? UNKNOWN);
    return { email: input.email };
  }),

  verifyEmail: publicProcedure
    .input(tokenInput)
    .mutation(({ ctx, input }) => verifyEmail(input.token, ctx.clientAddress ?? UNKNOWN)),

  resendVerification: sessionProcedure.mutation(async ({ ctx }) => {
    await resendVerification(ctx.session.userId);
    return { sent: true };
  }),

  // The same answer whether or not the account exists.
  forgotPassword: publicProcedure.input(resetRequestInput).mutation(async ({ ctx, input }) => {
    await requestPasswordReset(input.email, ctx.clientAddress ?? UNKNOWN);
    return { sent: true };
  }),

  resetPassword: publicProcedure.input(resetPasswordInput).mutation(async ({ ctx, input }) => {
    await resetPassword(input.token, input.password, ctx.clientAddress ?? UNKNOWN);
    return { reset: true };
  }),

  changePassword: sessionProcedure.input(changePasswordInput).mutation(async ({ ctx, input }) => {
    const account = await changePassword(ctx.session.userId, input.currentPassword, input.newPassword);
    // Every other session ended with the change; this browser gets a new one.
    await ctx.keepSession?.(account);
    return { changed: true };
  }),

  changeEmail: sessionProcedure.input(changeEmailInput).mutation(async ({ ctx, input }) => {
    await requestEmailChange(ctx.session.userId, input);
    return { sent: true };
  }),

  confirmEmail: publicProcedure
    .input(tokenInput)
    .mutation(({ ctx, input }) => confirmEmailChange(input.token, ctx.clientAddress ?? UNKNOWN)),

  undoEmailChange: publicProcedure
    .input(tokenInput)
    .mutation(({ ctx, input }) => undoEmailChange(input.token, ctx.clientAddress ?? UNKNOWN)),

  logOutEverywhere: sessionProcedure.mutation(async ({ ctx }) => {
    await logOutEverywhere(ctx.session.userId);
    return { ended: true };
  }),

  /** Delete account on /profile: the typed email and the password confirm it. */
  delete: sessionProcedure
    .input(deletionInput)
    .mutation(({ ctx, input }) => deleteAccount(ctx.session.userId, input).then(() => ({ deleted: true as const }))),
});
