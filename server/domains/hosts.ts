// Is this Host a verified custom domain? Asked by the HTTP edge for requests on a host that is not
// the service's own, so cached in process (both answers: a host that is no custom domain is asked
// about at every request too). A verify or delete is told to every instance the way a code's
// change is (server/scan/resolve.ts: Redis pub/sub, or the changes file of processes sharing a
// SQLite file), as the key `host:<domain>`; while that channel is down the cache is not trusted.
import { isIP } from "node:net";
import { db, isDatabaseUnreachable } from "../platform/db";
import { env } from "../platform/env";
import { processSingleton } from "../platform/process-singleton";
import { cacheTrusted, onInvalidation, tellInstances } from "../scan/resolve";

const MAX_ENTRIES = 10_000;
const PREFIX = "host:";

const state = processSingleton("domains.hosts", () => {
  const entries = new Map<string, boolean>();
  let generation = 0;
  onInvalidation((key) => {
    generation++;
    if (key === null) entries.clear();
    else if (key.startsWith(PREFIX)) entries.delete(key.slice(PREFIX.length));
  });
  return { entries, generation: () => generation };
});

/** The service's own hosts (APP_URL, SHORT_BASE_URL) and addresses are never a customer's domain: no lookup. */
const ownHosts = processSingleton(
  "domains.ownHosts",
  () => new Set([env.appUrl, env.shortBaseUrl].map((url) => new URL(url).hostname.toLowerCase())),
);

/** The host name of a Host header (lower case, without port), or null for an address, localhost or our own host. */
export function customHostOf(header: string | undefined): string | null {
  if (!header) return null;
  const host = header.toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
  if (host === "" || host === "localhost" || host.startsWith("[") || isIP(host) || ownHosts.has(host)) return null;
  return host;
}

/**
 * What the cache knows of `host` (undefined: ask isVerifiedHost). Synchronous, so that a cached
 * custom domain's redirect waits on nothing more than `/q/<code>`'s does.
 */
export const knownHost = (host: string): boolean | undefined => (cacheTrusted() ? state.entries.get(host) : undefined);

/** True when `host` is a verified domain; null when the database cannot be asked (an outage). */
export async function isVerifiedHost(host: string): Promise<boolean | null> {
  const cached = knownHost(host);
  if (cached !== undefined) return cached;
  const trusted = cacheTrusted();
  const generation = state.generation();
  let verified: boolean;
  try {
    const row = await db.domain.findUnique({ where: { domain: host }, select: { verifiedAt: true } });
    verified = row?.verifiedAt != null;
  } catch (error) {
    if (isDatabaseUnreachable(error)) return null;
    throw error;
  }
  if (trusted && generation === state.generation()) {
    if (state.entries.size >= MAX_ENTRIES) state.entries.delete(state.entries.keys().next().value!);
    state.entries.set(host, verified);
  }
  return verified;
}

/** After a domain is verified or deleted: every instance asks again. */
export const forgetHost = (domain: string) => tellInstances(`${PREFIX}${domain}`);
