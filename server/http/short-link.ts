// A short link answered from Node (server/http/server.ts): `/q/<code>`, and `/<code>` on a verified
// custom domain (server/http/custom-domain.ts), both by answerShortLink, the function
// app/q/[code]/route.ts calls too. Counted under one route template; access-logged only with
// LOG_SHORT_LINKS=1.
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { ERROR_TABLE } from "../platform/errors";
import { env } from "../platform/env";
import { logError, logRequest } from "../platform/log";
import { countRequest, sampleShortLink } from "../platform/metrics";
import { shortLinkCodeOf } from "../platform/urls";
import { answerShortLink, FORM_TOO_LARGE, MAX_FORM_BYTES, passwordOfForm } from "../scan/redirect";
import { plainAnswer, writeAnswer } from "./answer";

const SHORT_LINK_ROUTE = "/q/{code}";
/** A contact card's download (server/scan/redirect.ts): `format=vcf` in the query. */
const VCF_QUERY = /\?(?:.*&)?format=vcf(?:&|$)/;

const unavailable = plainAnswer(ERROR_TABLE.database_unavailable.status, "Try again in a moment.");
export const DATABASE_UNAVAILABLE = {
  ...unavailable,
  headers: { ...unavailable.headers, "Retry-After": "1", "Cache-Control": "no-store" },
};

/** A request header's (first) value. */
export function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** GET, HEAD and POST (a protected code's form) are a short link's methods. */
export const isShortLinkMethod = (method: string | undefined) =>
  method === "GET" || method === "HEAD" || method === "POST";

// (No closure is made per redirect: tsx names every function it creates, at a cost.)
export async function serveShortLink(
  req: IncomingMessage,
  res: ServerResponse,
  code: string,
  address: string,
  domain?: string,
) {
  const started = sampleShortLink() || env.logShortLinks ? performance.now() : 0;
  try {
    const countryHeader = env.countryHeader;
    const password = req.method === "POST" ? await formPassword(req) : undefined;
    const answer =
      password === null
        ? FORM_TOO_LARGE
        : await answerShortLink({
            method: req.method!,
            code,
            domain,
            userAgent: headerOf(req, "user-agent") ?? "",
            address,
            countryHeader: countryHeader ? headerOf(req, countryHeader) : null,
            password,
            vcf: VCF_QUERY.test(req.url!),
          });
    if (password === null) res.setHeader("Connection", "close");
    res.writeHead(answer.status, answer.headers).end(answer.body ?? undefined);
  } catch (error) {
    // Only when the code is not cached and the database cannot be reached.
    logError("shortlink.failed", { code }, error);
    await writeAnswer(res, req.method!, DATABASE_UNAVAILABLE);
  }
  const ms = started === 0 ? 0 : performance.now() - started;
  countRequest(SHORT_LINK_ROUTE, req.method!, res.statusCode, started === 0 ? null : ms / 1000);
  if (env.logShortLinks)
    logRequest({
      requestId: randomUUID(),
      route: SHORT_LINK_ROUTE,
      method: req.method!,
      status: res.statusCode,
      ms: Math.round(ms * 10) / 10,
    });
}

/** The password a protected code's form posted; null when the body is over MAX_FORM_BYTES. */
function formPassword(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_FORM_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_FORM_BYTES ? null : passwordOfForm(Buffer.concat(chunks).toString("utf8"))));
    req.on("error", reject);
    req.on("close", () => resolve(null)); // aborted mid-body: nobody waits for an answer (after "end", a no-op)
  });
}

/**
 * Another spelling of a short link's path (`//q/<code>`, `/q/<code>/`, `/Q/<code>`, escapes):
 * a 308 to `/q/<code>`. The redirect-loop rule refuses every path `shortLinkCodeOf` routes here.
 */
export function redirectToShortLink(req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? "/";
  const query = url.includes("?") ? url.slice(url.indexOf("?")) : "";
  const location = `/q/${encodeURIComponent(shortLinkCodeOf(url)!)}${query}`;
  res
    .writeHead(308, { Location: location, "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" })
    .end(req.method === "HEAD" ? undefined : `Permanent Redirect: ${location}\n`);
  countRequest(SHORT_LINK_ROUTE, req.method ?? "GET", 308, null);
}
