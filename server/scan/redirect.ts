// GET/HEAD /q/<code>: 302 to the destination of an active code, recording the scan; a small
// page for unknown, draft, paused (404) and deleted (410) codes.
import { clientAddress, countryHeaderOf } from "../client-address";
import { countShortLink } from "../metrics";
import { bufferScan, isBotAgent } from "./recorder";
import { resolveCode } from "./resolve";

const PAGES = {
  unknown: [404, "This QR code is not known", "Check the address, or ask whoever printed the code."],
  draft: [404, "This QR code is not live yet", "It is waiting for review. Try again later."],
  paused: [404, "This QR code is paused", "Its owner has paused it for now. Try again later."],
  deleted: [410, "This QR code was removed", "Its owner deleted it; it will not come back."],
} as const;

const page = (title: string, text: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;background:#f6f7f9;color:#1b1f24;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border:1px solid #d0d7de;border-radius:10px;padding:2rem;max-width:28rem;margin:1rem}h1{font-size:1.4rem;margin-top:0}p{color:#57606a}</style>
</head><body><main><h1>${title}</h1><p>${text}</p><p>▦ QR Records</p></main></body></html>`;

/** A /q request as either front end (the route handler or the Node server) sees it. */
export type ShortLinkRequest = {
  method: string;
  code: string;
  userAgent: string;
  /** The client address that counts (see server/client-address.ts). */
  address: string;
  countryHeader: string | null;
};
export type ShortLinkAnswer = { status: number; headers: Record<string, string>; body: string | null };

const REDIRECT_CACHE = "private, max-age=0";

export async function answerShortLink(req: ShortLinkRequest): Promise<ShortLinkAnswer> {
  const resolution = await resolveCode(req.code);
  if (resolution.state !== "active") {
    const [status, title, text] = PAGES[resolution.state];
    countShortLink(status === 410 ? "gone" : "not_found");
    return {
      status,
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
      body: req.method === "HEAD" ? null : page(title, text),
    };
  }
  // HEAD requests (link checkers) and bots are redirected but not counted.
  if (req.method === "GET" && !isBotAgent(req.userAgent)) {
    countShortLink("redirect");
    const spooled = bufferScan({
      dynamicCodeId: resolution.id,
      scannedAt: Date.now(),
      destinationUrl: resolution.destinationUrl,
      userAgent: req.userAgent,
      address: req.address,
      countryHeader: req.countryHeader,
    });
    // The 302 leaves once the scan is in the spool (server/scan/spool).
    if (spooled) await spooled;
  } else countShortLink(req.method === "GET" ? "bot" : "redirect");
  return { status: 302, headers: { Location: resolution.destinationUrl, "Cache-Control": REDIRECT_CACHE }, body: null };
}

/** The Fetch-API front end (app/q/[code]/route.ts, for `next dev` and serverless hosts). */
export async function handleShortLink(req: Request, code: string): Promise<Response> {
  const answer = await answerShortLink({
    method: req.method,
    code,
    userAgent: req.headers.get("user-agent") ?? "",
    address: clientAddress(req.headers),
    countryHeader: countryHeaderOf(req.headers),
  });
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
