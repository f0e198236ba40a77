// The web pages' tRPC endpoint (session procedures).
import { randomUUID } from "node:crypto";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import { renewedSessionCookie, sessionUserId } from "@/server/auth";
import { clientAddress } from "@/server/client-address";
import { logError } from "@/server/log";
import { servedHostsOf } from "@/server/served-host";

/** State changes must come from our own pages (CSRF): the Origin must be this host. */
function sameOrigin(req: Request): boolean {
  const origin = req.headers.get("origin");
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  try {
    return origin !== null && new URL(origin).host === host;
  } catch {
    return false;
  }
}

const handler = (req: Request) => {
  const requestId = randomUUID();
  if (req.method !== "GET" && !sameOrigin(req)) {
    return Response.json({ error: { message: "Cross-site request refused" } }, { status: 403 });
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: async ({ resHeaders }) => {
      const userId = await sessionUserId();
      return {
        requestId,
        session: userId ? { userId } : null,
        principal: null,
        servedHosts: servedHostsOf(req.headers),
        clientAddress: clientAddress(req.headers),
        keepSession: async (account) => resHeaders.append("set-cookie", await renewedSessionCookie(account)),
      };
    },
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") logError("trpc.internal_error", { requestId, path }, error.cause ?? error);
    },
  });
};

export { handler as GET, handler as POST };
