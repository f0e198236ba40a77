// The web pages' tRPC endpoint (session procedures).
import { randomUUID } from "node:crypto";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import { renewedSessionCookie, sessionUserId } from "@/server/accounts/auth";
import { clientAddress } from "@/server/platform/client-address";
import { yieldToIo } from "@/server/platform/event-loop";
import { jsonShapeProblem, readBytes, utf8TextInTurns } from "@/server/http/body";
import { inKib, pagesBodyBound } from "@/server/http/body-bounds";
import { oneLargeBodyAtATime } from "@/server/http/heavy-gate";
import { logError } from "@/server/platform/log";
import { servedHostsOf } from "@/server/platform/served-host";

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

/** The procedures a request calls: `/api/trpc/library.create` or, batched, `/api/trpc/library.create,library.page`. */
function proceduresOf(req: Request): string {
  const path = new URL(req.url).pathname.replace(/^\/api\/trpc\//, "");
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // Names no procedure: the smallest bound, then tRPC's 404.
  }
}

/** The body's bytes within its calls' bound (server/http/body-bounds.ts: a create's is 16 KiB, the CSV import check's 4 MiB), or the refusal: read no further. */
async function boundedBody(req: Request): Promise<Buffer | Response> {
  const bound = pagesBodyBound(proceduresOf(req));
  const bytes = await readBytes(req, bound);
  // In tRPC's error shape, as the 403.
  return (
    bytes ??
    Response.json(
      { error: { message: `The body must be at most ${inKib(bound)}` } },
      { status: 413, headers: { Connection: "close" } },
    )
  );
}

/**
 * The request with the body's text, or the refusal: JSON nested deeper or with more values than
 * any call needs is refused unparsed (server/http/body.ts).
 */
async function withText(req: Request, bytes: Buffer): Promise<Request | Response> {
  let text: string;
  try {
    text = await utf8TextInTurns(bytes);
  } catch (error) {
    return Response.json({ error: { message: (error as Error).message } }, { status: 400 });
  }
  // The decoding (a slice a turn), the shape's check and tRPC's parse each hold the loop a few ms on 4 MiB: one turn each.
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
  if (received.method === "GET" || received.method === "HEAD") return answer(received, requestId);
  const body = await boundedBody(received);
  if (body instanceof Response) return body;
  // A large body's work waits for the one before it (server/http/heavy-gate.ts).
  return oneLargeBodyAtATime(body.byteLength, async () => {
    const req = await withText(received, body);
    return req instanceof Response ? req : answer(req, requestId);
  });
};

/** tRPC's answer to the request (its body, if any, already checked). */
const answer = (req: Request, requestId: string) =>
  fetchRequestHandler({
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
      if (error.code === "INTERNAL_SERVER_ERROR")
        logError("trpc.internal_error", { requestId, path }, error.cause ?? error);
    },
  });

export { handler as GET, handler as POST };
