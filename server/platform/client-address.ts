// Which client address counts (login throttling, invalid-key limits, the visitor hash and the
// country of a scan). With TRUST_PROXY unset, an X-Forwarded-For header is not believed: only
// the address of the TCP peer counts. With TRUST_PROXY=1 (behind your own proxy or load
// balancer) the first X-Forwarded-For entry counts.
//
// The Node server (server/http/server.ts) decides from the socket and replaces the header
// with that one address before Next sees the request, so `clientAddress(headers)` is right
// there. Under `next dev` or a serverless host there is no socket: the last entry, which the
// host appends, is the best there is.
import { env } from "./env";

const entries = (forwardedFor: string | string[] | null | undefined) =>
  (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** From the TCP peer and the X-Forwarded-For header it sent. */
export function addressFromSocket(
  remoteAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
): string {
  const peer = remoteAddress ?? "unknown";
  return env.trustProxy ? (entries(forwardedFor)[0] ?? peer) : peer;
}

/** From request headers alone (after the Node server, a single trustworthy entry). */
export function clientAddress(headers: { get(name: string): string | null }): string {
  const forwarded = entries(headers.get("x-forwarded-for"));
  if (forwarded.length === 0) return "unknown";
  return env.trustProxy ? forwarded[0] : forwarded[forwarded.length - 1];
}

/** The trusted edge's country header (TRUST_PROXY_COUNTRY_HEADER), if it names one. */
export function countryHeaderOf(headers: { get(name: string): string | null }): string | null {
  return env.countryHeader ? headers.get(env.countryHeader) : null;
}
