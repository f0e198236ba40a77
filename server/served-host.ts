// The addresses a request reached the service on, for the one rule that depends on them: a
// destination on this service's own /q/ is a redirect loop whatever address it names, the
// configured base URLs or the host the caller actually used (an instance reached as
// http://10.0.0.5:3000 that APP_URL does not name). The edges (/v1 and the pages' tRPC
// endpoint) run the request inside `withServedHosts`; the URL rule reads `servedHosts()`.
import { AsyncLocalStorage } from "node:async_hooks";
import { memoize } from "./memoize";
import { processSingleton } from "./process-singleton";

const store = processSingleton("request.servedHosts", () => new AsyncLocalStorage<string[]>());

/** `host:port` as `URL.host` writes it (lower case, no default port); remembered, as a service is reached under few names. */
const normalHost = memoize("servedHost", (value): string | null => {
  try {
    return new URL(`http://${value.trim()}`).host;
  } catch {
    return null;
  }
}, 100);

/** Runs `fn` with the request's Host (and X-Forwarded-Host, set by a proxy in front) as served hosts. */
export function withServedHosts<T>(headers: { get(name: string): string | null }, fn: () => T): T {
  const hosts = [headers.get("host"), ...(headers.get("x-forwarded-host") ?? "").split(",")]
    .map((h) => (h ? normalHost(h) : null))
    .filter((h): h is string => !!h);
  return store.run(hosts, fn);
}

/** The served hosts of the request being handled (none outside a request). */
export const servedHosts = (): readonly string[] => store.getStore() ?? [];
