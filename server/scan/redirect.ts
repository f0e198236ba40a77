// GET/HEAD /q/<code>: 302 to the destination of an active code, recording the scan; a small
// page for unknown, draft, paused (404), deleted and expired (410) codes. A code's rules
// (server/rules) apply in the contract's order: expired → password (POST /q/<code> from its
// form) → first matching target, else the destination, with its UTM tags already applied.
// A `vcard` or `page` code's destination is its hosted page (server/hosted), answered 200 and
// counted like a redirect; a target still leads to its URL. `?format=vcf` on a contact card is
// its vCard download, behind the same expiry and password, and never a scan.
import { clientAddress, countryHeaderOf } from "../platform/client-address";
import { nowMs } from "../platform/clock";
import { processSingleton } from "../platform/process-singleton";
import { countShortLink } from "../platform/metrics";
import { answerPasswordForm, checkPassword, chooseUrl } from "../rules";
import { HTML_HEADERS, shortLinkPage } from "./page";
import { EDGE_HEADERS } from "../platform/security-headers";
import { bufferScan } from "./recorder";
import { isBotAgent } from "./visitor";
import { resolveCode } from "./resolve";
import { linkKey } from "./resolution";
import { hostedPage } from "../hosted/page";
import type { Hosted } from "../hosted/content";
import { vcard } from "../codeTypes/payload";

const PAGES = {
  unknown: [404, "This QR code is not known", "Check the address, or ask whoever printed the code."],
  draft: [404, "This QR code is not live yet", "It is waiting for review. Try again later."],
  paused: [404, "This QR code is paused", "Its owner has paused it for now. Try again later."],
  deleted: [410, "This QR code was removed", "Its owner deleted it; it will not come back."],
  expired: [410, "This QR code has expired", "Its owner set it to end; it no longer leads anywhere."],
} as const;

/** A /q request as either front end (the route handler or the Node server) sees it. */
export type ShortLinkRequest = {
  method: string;
  code: string;
  /** The verified custom domain it was asked on (`Host`), or absent for /q/<code>. */
  domain?: string;
  userAgent: string;
  /** The client address that counts (see server/platform/client-address.ts). */
  address: string;
  countryHeader: string | null;
  /** POST only: the password the form sent ("" when none). */
  password?: string;
  /** `?format=vcf`: a contact card's vCard download. */
  vcf?: boolean;
};
export type ShortLinkAnswer = {
  status: number;
  /** Never changed by a caller: shared, frozen header sets are answered as they are. */
  headers: Readonly<Record<string, string>>;
  body: string | Uint8Array<ArrayBuffer> | null;
};

const REDIRECT_CACHE = "private, max-age=0";

const pageAnswer = (method: string, [status, title, text]: (typeof PAGES)[keyof typeof PAGES]): ShortLinkAnswer => ({
  status,
  headers: { ...HTML_HEADERS },
  body: method === "HEAD" ? null : shortLinkPage(title, text),
});

export async function answerShortLink(req: ShortLinkRequest): Promise<ShortLinkAnswer> {
  const resolution = await resolveCode(req.code, req.domain ?? "");
  if (resolution.state !== "active") {
    countShortLink(resolution.state === "deleted" ? "gone" : "not_found");
    return pageAnswer(req.method, PAGES[resolution.state]);
  }
  // Expired scans are not scans: counted by outcome only.
  if (resolution.expiresAt !== undefined && resolution.expiresAt <= nowMs()) {
    countShortLink("expired");
    if (resolution.expiredUrl === undefined) return pageAnswer(req.method, PAGES.expired);
    return { status: 302, headers: { Location: resolution.expiredUrl, "Cache-Control": REDIRECT_CACHE }, body: null };
  }
  if (resolution.passwordHash !== undefined) {
    // Everyone, bots included, gets the form first; only its POST may lead on.
    if (req.method !== "POST") {
      countShortLink("password");
      return answerPasswordForm(linkKey(req.domain ?? "", req.code), req.method, null);
    }
    const check = await checkPassword(
      linkKey(req.domain ?? "", req.code),
      req.address,
      req.password ?? "",
      resolution.passwordHash,
    );
    if (!check.ok) {
      countShortLink("password");
      return answerPasswordForm(linkKey(req.domain ?? "", req.code), req.method, check);
    }
  }
  const { hosted } = resolution;
  if (hosted?.type === "vcard" && req.vcf) return vcfAnswer(req.code, vcard(hosted.content), req.method);
  // "" for a hosted code when no target matched: its page answers.
  const destinationUrl = chooseUrl(resolution.targets, resolution.destinationUrl, req);
  // A scan is a person's GET, or the POST of a protected code's form; HEAD requests (link
  // checkers), other POSTs and bots are redirected but not counted.
  const scanned = req.method === "GET" || (req.method === "POST" && resolution.passwordHash !== undefined);
  if (scanned && !isBotAgent(req.userAgent)) {
    countShortLink("redirect");
    const spooled = bufferScan({
      dynamicCodeId: resolution.id,
      scannedAt: Date.now(),
      destinationUrl,
      userAgent: req.userAgent,
      address: req.address,
      countryHeader: req.countryHeader,
    });
    // The 302 leaves once the scan is in the spool (server/scan/spool).
    if (spooled) await spooled;
  } else countShortLink(scanned ? "bot" : "redirect");
  if (hosted && destinationUrl === "")
    return {
      status: 200,
      headers: HTML_HEADERS,
      body:
        req.method === "HEAD"
          ? null
          : pageBody(
              hosted,
              req.domain ? `/${req.code}` : `/q/${req.code}`,
              resolution.passwordHash ? req.password : undefined,
            ),
    };
  return { status: 302, headers: { Location: destinationUrl, "Cache-Control": REDIRECT_CACHE }, body: null };
}

/**
 * A hosted page's bytes, made once per cached resolution and path: the cache keeps the object,
 * so a scan of a page answers nearly as cheaply as a redirect. A protected code's page holds the
 * password just posted and is made each time.
 */
const madePages = processSingleton(
  "hosted.pages",
  () => new WeakMap<Hosted, { path: string; body: Uint8Array<ArrayBuffer> }>(),
);
function pageBody(hosted: Hosted, path: string, password: string | undefined): string | Uint8Array<ArrayBuffer> {
  if (password !== undefined) return hostedPage(hosted, path, password);
  const made = madePages.get(hosted);
  if (made?.path === path) return made.body;
  const body = new TextEncoder().encode(hostedPage(hosted, path));
  madePages.set(hosted, { path, body });
  return body;
}

/** A contact card's `.vcf`: an attachment phones import (text/vcard, RFC 6350's media type). */
const vcfAnswer = (code: string, text: string, method: string): ShortLinkAnswer => ({
  status: 200,
  headers: {
    ...EDGE_HEADERS,
    "Content-Type": "text/vcard; charset=utf-8",
    "Content-Disposition": `attachment; filename="${code}.vcf"`,
    "Cache-Control": "no-store",
  },
  body: method === "HEAD" ? null : text,
});

/** The password form's body is small: anything longer is refused unread. */
export const MAX_FORM_BYTES = 4096;

/** The form's `password` field from a urlencoded body ("" when absent). */
export const passwordOfForm = (body: string) => new URLSearchParams(body).get("password") ?? "";

export const FORM_TOO_LARGE: ShortLinkAnswer = {
  status: 413,
  headers: { ...HTML_HEADERS },
  body: shortLinkPage("Too much was sent", "Go back and enter the password again."),
};

/** The Fetch-API front end (app/q/[code]/route.ts, for `next dev` and serverless hosts). */
export async function handleShortLink(req: Request, code: string): Promise<Response> {
  let password: string | undefined;
  if (req.method === "POST") {
    if (Number(req.headers.get("content-length") ?? "0") > MAX_FORM_BYTES)
      return new Response(FORM_TOO_LARGE.body, FORM_TOO_LARGE);
    const body = await req.arrayBuffer();
    if (body.byteLength > MAX_FORM_BYTES) return new Response(FORM_TOO_LARGE.body, FORM_TOO_LARGE);
    password = passwordOfForm(Buffer.from(body).toString("utf8"));
  }
  const vcf = new URL(req.url).searchParams.get("format") === "vcf";
  const answer = await answerShortLink({
    method: req.method,
    code,
    userAgent: req.headers.get("user-agent") ?? "",
    address: clientAddress(req.headers),
    countryHeader: countryHeaderOf(req.headers),
    password,
    vcf,
  });
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
