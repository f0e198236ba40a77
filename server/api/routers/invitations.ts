// Team invitations on /business (send, list, cancel) and /invite/<token> (accept).
import { z } from "zod";
import {
  acceptInvitation,
  cancelInvitation,
  invitationEmail,
  inviteMember,
  pendingInvitations,
} from "../../teams/invitations";
import { roleField } from "../../teams/teams";
import { createTRPCRouter, sessionProcedure } from "../trpc";

const done = { ok: true as const };

export const invitationsRouter = createTRPCRouter({
  pending: sessionProcedure.query(({ ctx }) => pendingInvitations(ctx.session.userId)),
  send: sessionProcedure
    .input(z.object({ email: invitationEmail, role: roleField }))
    .mutation(({ ctx, input }) => inviteMember(ctx.session.userId, input.email, input.role)),
  cancel: sessionProcedure
    .input(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => cancelInvitation(ctx.session.userId, input.id).then(() => done)),
  accept: sessionProcedure
    .input(z.object({ token: z.string().max(200) }))
    .mutation(({ ctx, input }) => acceptInvitation(ctx.session.userId, input.token)),
});
