// Which client address counts (login throttling, invalid-key limits, the visitor hash and the
// country of a scan). With TRUST_PROXY unset, an X-Forwarded-For header is not believed: only
// the address of the TCP peer counts. With TRUST_PROXY=1 (behind your own proxy or load
// balancer) the first X-Forwarded-For entry counts.
//
// The Node server (server/http-server.ts) decides from the socket and replaces the header
// with that one address before Next sees the request, so `clientAddress(headers)` is right
// there. Under `next dev` or a serverless host there is no socket: the last entry, which the
// host appends, is the best there is.
import { once } from "./env";

const trustProxy = once(() => process.env.TRUST_PROXY === "1" || process.env.TRUST_PROXY === "true");

const entries = (forwardedFor: string | string[] | null | undefined) =>
  (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** From the TCP peer and the X-Forwarded-For header it sent. */
export function addressFromSocket(remoteAddress: string | undefined, forwardedFor: string | string[] | undefined): string {
  const peer = remoteAddress ?? "unknown";
  return trustProxy() ? (entries(forwardedFor)[0] ?? peer) : peer;
}

/** From request headers alone (after the Node server, a single trustworthy entry). */
export function clientAddress(headers: { get(name: string): string | null }): string {
  const forwarded = entries(headers.get("x-forwarded-for"));
  if (forwarded.length === 0) return "unknown";
  return trustProxy() ? forwarded[0] : forwarded[forwarded.length - 1];
}

/** The trusted edge's country header, when TRUST_PROXY_COUNTRY_HEADER names one. */
export const countryHeaderName = once(() => process.env.TRUST_PROXY_COUNTRY_HEADER?.toLowerCase() || null);

export function countryHeaderOf(headers: { get(name: string): string | null }): string | null {
  const name = countryHeaderName();
  return name ? headers.get(name) : null;
}
