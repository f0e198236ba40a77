// The web pages' tRPC endpoint (session procedures).
import { randomUUID } from "node:crypto";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import { renewedSessionCookie, sessionUserId } from "@/server/auth";
import { clientAddress } from "@/server/client-address";
import { yieldToIo } from "@/server/event-loop";
import { jsonShapeProblem, readBody } from "@/server/http/body";
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

/**
 * The largest body a page sends: the CSV import's check of 1,000 rows, each a name and a URL at
 * their limits (about 3 MB). Anything larger is refused unread, and JSON nested deeper or with
 * more values than any call needs is refused unparsed (server/http/body.ts).
 */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The request with its body read within the limits, or the refusal (in tRPC's error shape, as the 403). */
async function bounded(req: Request): Promise<Request | Response> {
  if (req.method === "GET" || req.method === "HEAD") return req;
  let text: string | null;
  try {
    text = await readBody(req, MAX_BODY_BYTES);
  } catch (error) {
    return Response.json({ error: { message: (error as Error).message } }, { status: 400 });
  }
  if (text === null) return Response.json({ error: { message: "The body must be at most 4 MiB" } }, { status: 413, headers: { Connection: "close" } });
  // Decoding, the shape's check and tRPC's parse each hold the loop a few ms on 4 MiB: one turn each.
  await yieldToIo();
  const shape = jsonShapeProblem(text);
  if (shape) return Response.json({ error: { message: shape } }, { status: 400 });
  await yieldToIo();
  // tRPC reads the body with text(): it gets the text already decoded, not encoded and decoded again.
  return Object.assign(new Request(req.url, { method: req.method, headers: req.headers }), { text: async () => text });
}

const handler = async (received: Request) => {
  const requestId = randomUUID();
  if (received.method !== "GET" && !sameOrigin(received)) {
    return Response.json({ error: { message: "Cross-site request refused" } }, { status: 403 });
  }
  const req = await bounded(received);
  if (req instanceof Response) return req;
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
