import { accountRouter } from "./routers/account";
import { activityRouter } from "./routers/activity";
import { domainPagesRouter, domainsRouter } from "./routers/domains";
import { dynqrcodesRouter } from "./routers/dynqrcodes";
import { invitationsRouter } from "./routers/invitations";
import { keysRouter } from "./routers/keys";
import { libraryRouter } from "./routers/library";
import { libraryImportRouter } from "./routers/libraryImport";
import { qrcodesRouter } from "./routers/qrcodes";
import { stylePresetPagesRouter, stylePresetsRouter } from "./routers/stylePresets";
import { teamRouter } from "./routers/team";
import { twoFactorRouter } from "./routers/twoFactor";
import { webhookPagesRouter, webhooksRouter } from "./routers/webhooks";
import { createTRPCRouter } from "./trpc";

/** /v1's procedures (API-key procedures; each one's OpenAPI meta is its route: server/api/routes.ts). */
export const v1Router = createTRPCRouter({
  qrcodes: qrcodesRouter,
  dynqrcodes: dynqrcodesRouter,
  webhooks: webhooksRouter,
  domains: domainsRouter,
  stylePresets: stylePresetsRouter,
});

/** The web pages' calls on /api/trpc (session and public procedures). */
export const appRouter = createTRPCRouter({
  keys: keysRouter,
  account: accountRouter,
  team: teamRouter,
  invitations: invitationsRouter,
  library: libraryRouter,
  libraryImport: libraryImportRouter,
  webhooks: webhookPagesRouter,
  domains: domainPagesRouter,
  stylePresets: stylePresetPagesRouter,
  twoFactor: twoFactorRouter,
  activity: activityRouter,
});

export type AppRouter = typeof appRouter;
