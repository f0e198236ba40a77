// A request whose Host is not the service's own (server/http/server.ts). On a verified custom
// domain, `/<code>` is answered exactly as `/q/<code>` (serveShortLink, with the domain) and every
// other path 404: no pages, no /v1 on a customer's domain. Any other host gets the service's own
// routes. While the database cannot say (an outage), a code-shaped path is tried as a short link
// on the host: the live copy answers it, as it answers /q/.
// A host in the cache is decided synchronously: its redirect waits on nothing /q/'s does not.
import type { IncomingMessage, ServerResponse } from "node:http";
import { isVerifiedHost, knownHost } from "../domains/hosts";
import { logError } from "../platform/log";
import { countRequest } from "../platform/metrics";
import { HTML_HEADERS, shortLinkPage } from "../scan/page";
import { writeAnswer } from "./answer";
import { DATABASE_UNAVAILABLE, isShortLinkMethod, serveShortLink } from "./short-link";

/** `/<code>` (a query string allowed) on a custom domain. */
const CUSTOM_SHORT_LINK = /^\/([0-9A-Za-z_-]{1,64})(?:\?.*)?$/;

const NOT_ON_CUSTOM_DOMAIN = {
  status: 404,
  headers: { ...HTML_HEADERS },
  body: shortLinkPage("Nothing here", "This address only answers its QR codes' short links."),
};

/**
 * Answers a request on `host` (customHostOf) when it is a custom domain's: true when answered,
 * false when the request is the service's own to route; a promise of either while the host is
 * not in the cache.
 */
export function serveCustomHost(
  req: IncomingMessage,
  res: ServerResponse,
  host: string,
  address: string,
): boolean | Promise<boolean> {
  const known = knownHost(host);
  return known === undefined ? serveUnknownHost(req, res, host, address) : serveOnHost(req, res, host, address, known);
}

/** `verified`: null while the database cannot say. */
function serveOnHost(
  req: IncomingMessage,
  res: ServerResponse,
  host: string,
  address: string,
  verified: boolean | null,
): boolean {
  if (verified === false) return false;
  const code = CUSTOM_SHORT_LINK.exec(req.url ?? "")?.[1];
  if (code !== undefined && isShortLinkMethod(req.method)) {
    void serveShortLink(req, res, code, address, host);
    return true;
  }
  if (verified === null) return false;
  void writeAnswer(res, req.method ?? "GET", NOT_ON_CUSTOM_DOMAIN);
  countRequest("/{other}", req.method ?? "GET", 404, null);
  return true;
}

async function serveUnknownHost(req: IncomingMessage, res: ServerResponse, host: string, address: string) {
  let verified: boolean | null;
  try {
    verified = await isVerifiedHost(host);
  } catch (error) {
    logError("custom_host.failed", { host }, error);
    await writeAnswer(res, req.method ?? "GET", DATABASE_UNAVAILABLE);
    return true;
  }
  return serveOnHost(req, res, host, address, verified);
}
