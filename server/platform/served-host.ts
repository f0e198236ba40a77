// The addresses a request reached the service on, for the one rule that depends on them: a
// destination on this service's own /q/ is a redirect loop whatever address it names, the
// configured base URLs or the host the caller actually used (an instance reached as
// http://10.0.0.5:3000 that APP_URL does not name). The edges (/v1 and the pages' tRPC
// endpoint) put them in the request's context, the routers hand them to the domain with the
// actor, and the domain refuses such destinations (`refuseServedShortLinks`).
//
// Passed along explicitly, not through an AsyncLocalStorage: the domain's inputs stay in its
// signatures. (On Node 20 one in use also turned on promise hooks for every promise of the
// process, about 8 % of the /v1 gate's throughput, docs/BENCHMARKS.md, session 17; Node 24
// builds it on AsyncContextFrame, without them.)
import { env } from "./env";
import { memoize } from "./memoize";

/** `host:port` as `URL.host` writes it (lower case, no default port); remembered, as a service is reached under few names. */
const normalHost = memoize(
  "servedHost",
  (value): string | null => {
    try {
      return new URL(`http://${value.trim()}`).host;
    } catch {
      return null;
    }
  },
  100,
);

/** The request's Host, and X-Forwarded-Host (set by a proxy in front). */
export function servedHostsOf(headers: { get(name: string): string | null }): string[] {
  return [headers.get("host"), ...(headers.get("x-forwarded-host") ?? "").split(",")]
    .map((h) => (h ? normalHost(h) : null))
    .filter((h): h is string => !!h);
}

const firstOf = (value: string | null) => value?.split(",")[0]?.trim() || null;

/**
 * The origin a request reached, for documents that name absolute URLs of the service: its
 * host (X-Forwarded-Host behind a trusted proxy), its scheme from a trusted proxy's
 * X-Forwarded-Proto, else APP_URL's when the host is APP_URL's (TLS ends in front), else http.
 */
export function servedOrigin(headers: { get(name: string): string | null }): string {
  const configured = new URL(env.appUrl);
  const forwardedHost = env.trustProxy ? firstOf(headers.get("x-forwarded-host")) : null;
  const asked = forwardedHost ?? headers.get("host");
  const host = (asked ? normalHost(asked) : null) ?? configured.host;
  const proto = env.trustProxy ? firstOf(headers.get("x-forwarded-proto"))?.toLowerCase() : null;
  const scheme =
    proto === "https" || proto === "http"
      ? proto
      : host === configured.host
        ? configured.protocol.slice(0, -1)
        : "http";
  return `${scheme}://${host}`;
}
