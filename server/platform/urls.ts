// URLs as the service writes them, and the one rule of which URLs lead back to its own short
// links. Every URL the service sends (Location, QR payloads, records, exports, webhook
// payloads) is the WHATWG serialisation (punycode host, percent-encoded UTF-8), without a root
// slash its writer left out (`https://example.com` stays so; README "Decisions"). The redirect
// loop rule is derived from how the server itself routes a path to a short link
// (`shortLinkCodeOf`, which server/http/server.ts routes by): a destination is refused when it
// names one of the service's own hosts, however spelled, and a path the server would answer
// with a short link, directly or after its 308.

/** The longest URL accepted, as sent and as serialised. */
export const MAX_URL_LENGTH = 2048;

/** The canonical short link path, `/q/<code>` with an optional query (the server's fast path). */
export const SHORT_LINK = /^\/q\/([^/?]+)(?:\?|$)/;

/** `value` parsed as an absolute http(s) URL, or null. */
export function parsedHttpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** The scheme and the slashes after it; what follows up to the next slash, `?` or `#` is the authority. */
const SCHEME = /^[a-z][a-z0-9+.-]*:[/\\]*/i;
/** Whether the writer put a path (even `/`) after the authority: `https://a.example/` does, `https://a.example?x` does not. */
const writesPath = (raw: string) => /^[^/\\?#]*[/\\]/.test(raw.trim().replace(SCHEME, ""));

/**
 * The WHATWG serialisation of `url` (parsed from `raw`), except that a root slash `raw` did not
 * write is not added. No credentials: the rules refuse them before.
 */
export function serialisedUrl(url: URL, raw: string): string {
  const path = url.pathname === "/" && !writesPath(raw) ? "" : url.pathname;
  return `${url.protocol}//${url.host}${strictly(path)}${strictly(url.search)}${strictly(url.hash)}`;
}

/**
 * ASCII that WHATWG leaves raw but RFC 3986 does not allow (`|^[]{}`, backtick, backslash, a `%`
 * that starts no escape), percent-encoded: what we send is then also a URI by the older rule,
 * which the OpenAPI document's `format: uri` and strict clients check. Same resource: servers
 * decode both spellings alike.
 */
const NOT_RFC3986 = /[|^[\]{}`\\]|%(?![0-9a-fA-F]{2})/g;
const strictly = (part: string) => part.replace(NOT_RFC3986, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Characters that a serialised URL never holds raw (non-ASCII, controls, space, `"<>|^[]{}`, backtick, backslash): one class, scanned fast. */
const NOT_SERIALISED = /[^!#$%&'()*+,\-./0-9:;=?@A-Z_a-z~]/;
/** A `%` that starts no escape (tried only at each `%`: a lookahead at every character cost a long URL ten times more). */
const BARE_PERCENT = /%(?:[^0-9a-fA-F]|.[^0-9a-fA-F]|.?$)/s;

/**
 * A stored URL as it may be sent. New rows hold the serialisation already; a row stored before
 * (non-ASCII, a space) is serialised here. The test is two regular expressions, so the ASCII rows
 * of the redirect's hot path cost nothing more.
 */
export function sendableUrl(stored: string): string {
  if (!NOT_SERIALISED.test(stored) && !BARE_PERCENT.test(stored)) return stored;
  const url = parsedHttpUrl(stored);
  return url ? serialisedUrl(url, stored) : encodeURI(stored);
}

/** Percent escapes decoded, as a router may before it matches (repeatedly: `%2571` too); bytes that are not UTF-8 stay escaped. */
function decoded(path: string): string {
  let current = path;
  for (let i = 0; i < 4 && current.includes("%"); i++) {
    const next = current.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
    if (next === current) break;
    current = next;
  }
  return current;
}

/** The path's segments as the server's routing sees them: escapes decoded, backslashes as slashes, empty, `.` and `..` segments resolved. */
function segmentsOf(path: string): string[] {
  const segments: string[] = [];
  for (const segment of decoded(path.split(/[?#]/, 1)[0]).split(/[/\\]/)) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments;
}

/**
 * The code of the short link a request path leads to, or null: `/q/<code>` itself, or any other
 * spelling the server answers with a 308 to it (`//q/<code>`, `/q/<code>/`, `/Q/<code>`,
 * `/q/../q/<code>`, `/%71/<code>`, backslashes). One function for the server's routing and the
 * redirect-loop rule, so the rule refuses exactly what the server would route to a short link.
 */
export function shortLinkCodeOf(path: string): string | null {
  const fast = SHORT_LINK.exec(path);
  if (fast) return fast[1];
  const segments = segmentsOf(path);
  return segments.length === 2 && segments[0].toLowerCase() === "q" ? segments[1] : null;
}

/** A host the service answers on: its hostname, its port (null: the default ports 80 and 443) and the path its short links sit under. */
export type OwnHost = { hostname: string; port: string | null; prefix: string };

/** Lower case (as URL gives it) without trailing dots: `LocalHost.` and `localhost` are one host. */
const hostnameOf = (url: URL) => url.hostname.replace(/\.+$/, "");

/** Addresses that reach this machine itself, in the form URL serialises them (every IPv4 spelling becomes dotted decimal). */
function isLoopback(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    /^127\./.test(hostname) ||
    hostname === "0.0.0.0" ||
    hostname === "[::1]" ||
    hostname === "[::]" ||
    /^\[::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|0:0)\]$/.test(hostname)
  );
}

const sameHost = (a: string, b: string) => a === b || (isLoopback(a) && isLoopback(b));

/** A configured base URL (`APP_URL`, `SHORT_BASE_URL`) as an own host. */
export function ownHostOfBase(base: string): OwnHost | null {
  const url = parsedHttpUrl(base);
  return url && { hostname: hostnameOf(url), port: url.port || null, prefix: url.pathname.replace(/\/+$/, "") };
}

/** A Host or X-Forwarded-Host value (`host[:port]`) as an own host. */
export function ownHostOfHeader(value: string): OwnHost | null {
  const url = parsedHttpUrl(`http://${value.trim()}`);
  return url && url.pathname === "/" && !url.search
    ? { hostname: hostnameOf(url), port: url.port || null, prefix: "" }
    : null;
}

/** Whether `url` would reach one of `hosts` and be routed there to a short link. */
export function leadsToShortLink(url: URL, hosts: readonly OwnHost[]): boolean {
  const hostname = hostnameOf(url);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return hosts.some((own) => {
    if (!sameHost(own.hostname, hostname)) return false;
    if (own.port === null ? port !== "80" && port !== "443" : own.port !== port) return false;
    if (!own.prefix) return shortLinkCodeOf(url.pathname) !== null;
    const segments = segmentsOf(url.pathname);
    const prefix = segmentsOf(own.prefix);
    const under = prefix.every((segment, i) => segments[i] === segment);
    return under && shortLinkCodeOf(`/${segments.slice(prefix.length).join("/")}`) !== null;
  });
}
