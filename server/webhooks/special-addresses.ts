// Which IP addresses a webhook may be sent to: the IANA IPv4 and IPv6 Special-Purpose Address
// Registries (every entry, the globally reachable anycast ones too: no receiver lives on them),
// multicast, the IPv6 space outside global unicast 2000::/3, and the deprecated embeddings of
// IPv4 (compatible ::/96, SIIT ::ffff:0:0:0/96, Teredo, site-local) are refused. The three
// prefixes through which an IPv6 address reaches an IPv4 one (mapped ::ffff:0:0/96, NAT64
// 64:ff9b::/96, 6to4 2002::/16) are judged by the IPv4 address they embed: refused when it is
// special, public when it is (an IPv6-only host behind DNS64 reaches every IPv4-only receiver
// through 64:ff9b::/96). A table of our own: ipaddr.js (the library that keeps such ranges)
// misses 100:0:0:1::/64, ::/96 and its names are not the registries'. Node's own parser (isIP)
// says what is an address; the WHATWG URL parser has already turned the odd spellings of IPv4
// hosts (0x7f.1, 2130706433, 0177.0.0.1) into dotted decimal before anything gets here.
import { isIP } from "node:net";

type Range = { cidr: string; name: string };

/** IANA IPv4 Special-Purpose Address Registry (updated 2025), and multicast. */
export const SPECIAL_IPV4: readonly Range[] = [
  { cidr: "0.0.0.0/8", name: '"This network"' },
  { cidr: "0.0.0.0/32", name: '"This host on this network"' },
  { cidr: "10.0.0.0/8", name: "Private-Use" },
  { cidr: "100.64.0.0/10", name: "Shared Address Space" },
  { cidr: "127.0.0.0/8", name: "Loopback" },
  { cidr: "169.254.0.0/16", name: "Link Local" },
  { cidr: "172.16.0.0/12", name: "Private-Use" },
  { cidr: "192.0.0.0/24", name: "IETF Protocol Assignments" },
  { cidr: "192.0.0.0/29", name: "IPv4 Service Continuity Prefix" },
  { cidr: "192.0.0.8/32", name: "IPv4 dummy address" },
  { cidr: "192.0.0.9/32", name: "Port Control Protocol Anycast" },
  { cidr: "192.0.0.10/32", name: "Traversal Using Relays around NAT Anycast" },
  { cidr: "192.0.0.170/32", name: "NAT64/DNS64 Discovery" },
  { cidr: "192.0.0.171/32", name: "NAT64/DNS64 Discovery" },
  { cidr: "192.0.2.0/24", name: "Documentation (TEST-NET-1)" },
  { cidr: "192.31.196.0/24", name: "AS112-v4" },
  { cidr: "192.52.193.0/24", name: "AMT" },
  { cidr: "192.88.99.0/24", name: "Deprecated (6to4 Relay Anycast)" },
  { cidr: "192.88.99.2/32", name: "6a44-relay anycast address" },
  { cidr: "192.168.0.0/16", name: "Private-Use" },
  { cidr: "192.175.48.0/24", name: "Direct Delegation AS112 Service" },
  { cidr: "198.18.0.0/15", name: "Benchmarking" },
  { cidr: "198.51.100.0/24", name: "Documentation (TEST-NET-2)" },
  { cidr: "203.0.113.0/24", name: "Documentation (TEST-NET-3)" },
  { cidr: "224.0.0.0/4", name: "Multicast" },
  { cidr: "240.0.0.0/4", name: "Reserved" },
  { cidr: "255.255.255.255/32", name: "Limited Broadcast" },
];

/** IANA IPv6 Special-Purpose Address Registry (updated 2025-10-09), and the deprecated or scoped ranges around it. */
export const SPECIAL_IPV6: readonly Range[] = [
  { cidr: "::/96", name: "IPv4-compatible (deprecated)" },
  { cidr: "::1/128", name: "Loopback Address" },
  { cidr: "::/128", name: "Unspecified Address" },
  { cidr: "::ffff:0:0/96", name: "IPv4-mapped Address" },
  { cidr: "::ffff:0:0:0/96", name: "IPv4-translated (SIIT)" },
  { cidr: "64:ff9b::/96", name: "IPv4-IPv6 Translat." },
  { cidr: "64:ff9b:1::/48", name: "IPv4-IPv6 Translat." },
  { cidr: "100::/64", name: "Discard-Only Address Block" },
  { cidr: "100:0:0:1::/64", name: "Dummy IPv6 Prefix" },
  { cidr: "2001::/23", name: "IETF Protocol Assignments" },
  { cidr: "2001::/32", name: "TEREDO" },
  { cidr: "2001:1::1/128", name: "Port Control Protocol Anycast" },
  { cidr: "2001:1::2/128", name: "Traversal Using Relays around NAT Anycast" },
  { cidr: "2001:1::3/128", name: "DNS-SD Service Registration Protocol Anycast" },
  { cidr: "2001:2::/48", name: "Benchmarking" },
  { cidr: "2001:3::/32", name: "AMT" },
  { cidr: "2001:4:112::/48", name: "AS112-v6" },
  { cidr: "2001:10::/28", name: "Deprecated (previously ORCHID)" },
  { cidr: "2001:20::/28", name: "ORCHIDv2" },
  { cidr: "2001:30::/28", name: "Drone Remote ID Protocol Entity Tags (DETs) Prefix" },
  { cidr: "2001:db8::/32", name: "Documentation" },
  { cidr: "2002::/16", name: "6to4" },
  { cidr: "2620:4f:8000::/48", name: "Direct Delegation AS112 Service" },
  { cidr: "3fff::/20", name: "Documentation" },
  { cidr: "5f00::/16", name: "Segment Routing (SRv6) SIDs" },
  { cidr: "fc00::/7", name: "Unique-Local" },
  { cidr: "fe80::/10", name: "Link-Local Unicast" },
  { cidr: "fec0::/10", name: "Site-Local (deprecated)" },
  { cidr: "ff00::/8", name: "Multicast" },
];

/** An address as a number of 32 or 128 bits. */
type Bits = { value: bigint; width: 32 | 128 };

const ipv4Bits = (address: string): bigint =>
  address.split(".").reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);

/** An IPv6 address (checked by isIP), its dotted IPv4 tail and `::` expanded. */
function ipv6Bits(address: string): bigint {
  const hex = address.replace(/(\d+\.\d+\.\d+\.\d+)$/, (v4) => {
    const n = ipv4Bits(v4);
    return `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  });
  const [head, tail] = hex.split("::");
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const missing = tail === undefined ? 0 : 8 - groups(head).length - groups(tail).length;
  return [...groups(head), ...Array<string>(missing).fill("0"), ...groups(tail)].reduce(
    (value, group) => (value << 16n) | BigInt(parseInt(group, 16)),
    0n,
  );
}

type Table = { net: bigint; prefix: number; name: string; cidr: string }[];
const table = (ranges: readonly Range[], parse: (a: string) => bigint): Table =>
  ranges.map(({ cidr, name }) => {
    const [net, prefix] = cidr.split("/");
    return { net: parse(net), prefix: Number(prefix), name, cidr };
  });
const V4 = table(SPECIAL_IPV4, ipv4Bits);
const V6 = table(SPECIAL_IPV6, ipv6Bits);

const inside = ({ value, width }: Bits, net: bigint, prefix: number) =>
  value >> BigInt(width - prefix) === net >> BigInt(width - prefix);

/** The most specific entry of `ranges` that holds the address, as "name (cidr)", or null. */
function entryOf(bits: Bits, ranges: Table): string | null {
  let best: Table[number] | null = null;
  for (const range of ranges)
    if (inside(bits, range.net, range.prefix) && (!best || range.prefix > best.prefix)) best = range;
  return best && `${best.name}, ${best.cidr}`;
}

const ipv4Text = (n: bigint) => [24n, 16n, 8n, 0n].map((shift) => String((n >> shift) & 0xffn)).join(".");

/** The IPv4 address behind a mapped, NAT64 (well-known prefix) or 6to4 address, or null. */
function embeddedIpv4(bits: Bits): string | null {
  const { value } = bits;
  if (inside(bits, 0xffffn << 32n, 96) || inside(bits, ipv6Bits("64:ff9b::"), 96)) return ipv4Text(value & 0xffffffffn);
  if (inside(bits, 0x2002n << 112n, 16)) return ipv4Text((value >> 80n) & 0xffffffffn);
  return null;
}

/**
 * Why `address` (an IPv4 or IPv6 address, no brackets) may not receive webhooks, or null when
 * it is public: "Loopback, 127.0.0.0/8"; "embeds 10.0.0.1: Private-Use, 10.0.0.0/8".
 */
export function specialAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return entryOf({ value: ipv4Bits(address), width: 32 }, V4);
  if (family !== 6) return "not an IP address";
  if (address.includes("%")) return "a scoped address";
  const bits: Bits = { value: ipv6Bits(address), width: 128 };
  const v4 = embeddedIpv4(bits);
  if (v4 !== null) {
    const problem = specialAddress(v4);
    return problem && `embeds ${v4}: ${problem}`;
  }
  return entryOf(bits, V6) ?? (inside(bits, 1n << 125n, 3) ? null : "outside global unicast, 2000::/3");
}
