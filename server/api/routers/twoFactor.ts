// Two-factor authentication on /profile (session procedures): start (a new secret as QR code
// and text), confirm with a code (the recovery codes, shown once), disable with the password.
import { z } from "zod";
import { confirmTwoFactor, disableTwoFactor, startTwoFactor, twoFactorStatus } from "../../accounts/twoFactor";
import { createTRPCRouter, sessionProcedure } from "../trpc";

export const twoFactorRouter = createTRPCRouter({
  status: sessionProcedure.query(({ ctx }) => twoFactorStatus(ctx.session.userId)),
  start: sessionProcedure.mutation(({ ctx }) => startTwoFactor(ctx.session.userId)),
  confirm: sessionProcedure
    .input(
      z.object({
        code: z
          .string()
          .trim()
          .min(1, "Authentication code must not be empty")
          .max(20, "Authentication code is not valid: enter the 6 digits your app shows now"),
      }),
    )
    .mutation(({ ctx, input }) => confirmTwoFactor(ctx.session.userId, input.code)),
  disable: sessionProcedure
    .input(z.object({ password: z.string().min(1, "Password must not be empty").max(200, "Password is not correct") }))
    .mutation(({ ctx, input }) =>
      disableTwoFactor(ctx.session.userId, input.password).then(() => ({ ok: true as const })),
    ),
});
