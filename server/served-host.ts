// The addresses a request reached the service on, for the one rule that depends on them: a
// destination on this service's own /q/ is a redirect loop whatever address it names, the
// configured base URLs or the host the caller actually used (an instance reached as
// http://10.0.0.5:3000 that APP_URL does not name). The edges (/v1 and the pages' tRPC
// endpoint) put them in the request's context, the routers hand them to the domain with the
// actor, and the domain refuses such destinations (`refuseServedShortLinks`).
//
// Passed along explicitly, not through an AsyncLocalStorage: on Node 20 one in use turns on
// promise hooks for every promise of the process, which cost the /v1 gate about 8 % of its
// throughput (docs/BENCHMARKS.md, session 17).
import { memoize } from "./memoize";

/** `host:port` as `URL.host` writes it (lower case, no default port); remembered, as a service is reached under few names. */
const normalHost = memoize("servedHost", (value): string | null => {
  try {
    return new URL(`http://${value.trim()}`).host;
  } catch {
    return null;
  }
}, 100);

/** The request's Host, and X-Forwarded-Host (set by a proxy in front). */
export function servedHostsOf(headers: { get(name: string): string | null }): string[] {
  return [headers.get("host"), ...(headers.get("x-forwarded-host") ?? "").split(",")]
    .map((h) => (h ? normalHost(h) : null))
    .filter((h): h is string => !!h);
}
