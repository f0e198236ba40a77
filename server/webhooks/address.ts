// Where a webhook may be sent (contract: "Webhooks"): public addresses only, checked when an
// endpoint is saved and again when each attempt connects, after DNS (the lookup the connection
// uses is the one checked, so a name that later resolves to 127.0.0.1 is refused too). Private,
// loopback, link-local, multicast, unspecified and reserved ranges of IPv4 and IPv6, including
// IPv4-mapped IPv6, are refused unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=1.
import { lookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";
import { env } from "../env";
import { processSingleton } from "../process-singleton";

const blocked = processSingleton("webhooks.blockedRanges", () => {
  const list = new BlockList();
  for (const [net, prefix] of [
    ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12], ["192.0.0.0", 24],
    ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
  ] as const) list.addSubnet(net, prefix, "ipv4");
  for (const [net, prefix] of [["::", 127], ["64:ff9b::", 96], ["100::", 64], ["2001:db8::", 32], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]] as const) list.addSubnet(net, prefix, "ipv6");
  return list;
});

/** An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) as the IPv4 address it is. */
const unmapped = (address: string) => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;

export function isPublicAddress(address: string): boolean {
  const ip = unmapped(address.replace(/^\[|\]$/g, ""));
  const family = isIP(ip);
  if (family === 0) return false;
  return !blocked.check(ip, family === 4 ? "ipv4" : "ipv6");
}

export const PUBLIC_URL_MESSAGE = "url must be a public https URL";

/** Why `url` cannot be a webhook endpoint, or null: https, and a public address once resolved. */
export async function endpointUrlProblem(url: string): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return PUBLIC_URL_MESSAGE;
  }
  if (url.length > 2048 || parsed.username || parsed.password) return PUBLIC_URL_MESSAGE;
  if (env.webhookAllowPrivateNetworks) return parsed.protocol === "https:" || parsed.protocol === "http:" ? null : PUBLIC_URL_MESSAGE;
  if (parsed.protocol !== "https:") return PUBLIC_URL_MESSAGE;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(unmapped(host)) ? [host] : await resolveAll(host).catch(() => []);
  return addresses.length > 0 && addresses.every(isPublicAddress) ? null : PUBLIC_URL_MESSAGE;
}

const resolveAll = (host: string) =>
  new Promise<string[]>((resolve, reject) => lookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses.map((a) => a.address)))));

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The DNS lookup of every delivery's connection: an address that is not public fails the attempt. */
export function guardedLookup(hostname: string, options: object, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = env.webhookAllowPrivateNetworks ? [] : addresses.filter((a) => !isPublicAddress(a.address));
    if (refused.length > 0) return callback(Object.assign(new Error(`${hostname} resolves to a private address`), { code: "EPRIVATE" }), []);
    const all = (options as { all?: boolean }).all;
    if (all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}
