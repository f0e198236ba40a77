import { accountRouter } from "./routers/account";
import { dynqrcodesRouter } from "./routers/dynqrcodes";
import { keysRouter } from "./routers/keys";
import { libraryRouter } from "./routers/library";
import { qrcodesRouter } from "./routers/qrcodes";
import { teamRouter } from "./routers/team";
import { createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  qrcodes: qrcodesRouter,
  dynqrcodes: dynqrcodesRouter,
  keys: keysRouter,
  account: accountRouter,
  team: teamRouter,
  library: libraryRouter,
});

export type AppRouter = typeof appRouter;
