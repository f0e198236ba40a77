// Where webhooks may go (server/webhooks/special-addresses.ts, address.ts), against the IANA
// IPv4 and IPv6 Special-Purpose Address Registries as published (IPv4: 2025; IPv6: 2025-10-09),
// written out here on their own: every entry with addresses at its edges that must be refused,
// public neighbours that must pass, the embedded-IPv4 forms, and the odd spellings of IPv4
// hosts judged after the URL parser. Then the connector of every delivery, on real sockets to a
// listener of this test's own on loopback: what it refuses never reaches the listener.
import assert from "node:assert/strict";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { Agent, request } from "undici";
import { endpointUrlProblem, guardedConnector, type WebhookPolicy } from "../../server/webhooks/address";
import { specialAddress } from "../../server/webhooks/special-addresses";

/** [entry, name, addresses inside it (its first and last where they are not a nested entry's)]. */
const IPV4_REGISTRY: [string, string, string[]][] = [
  ["0.0.0.0/8", '"This network"', ["0.0.0.1", "0.255.255.255"]],
  ["0.0.0.0/32", '"This host on this network"', ["0.0.0.0"]],
  ["10.0.0.0/8", "Private-Use", ["10.0.0.0", "10.0.0.1", "10.255.255.255"]],
  ["100.64.0.0/10", "Shared Address Space", ["100.64.0.0", "100.127.255.255"]],
  ["127.0.0.0/8", "Loopback", ["127.0.0.0", "127.0.0.1", "127.255.255.255"]],
  ["169.254.0.0/16", "Link Local", ["169.254.0.0", "169.254.169.254", "169.254.255.255"]],
  ["172.16.0.0/12", "Private-Use", ["172.16.0.0", "172.31.255.255"]],
  ["192.0.0.0/24", "IETF Protocol Assignments", ["192.0.0.11", "192.0.0.255"]],
  ["192.0.0.0/29", "IPv4 Service Continuity Prefix", ["192.0.0.0", "192.0.0.7"]],
  ["192.0.0.8/32", "IPv4 dummy address", ["192.0.0.8"]],
  ["192.0.0.9/32", "Port Control Protocol Anycast", ["192.0.0.9"]],
  ["192.0.0.10/32", "Traversal Using Relays around NAT Anycast", ["192.0.0.10"]],
  ["192.0.0.170/32", "NAT64/DNS64 Discovery", ["192.0.0.170"]],
  ["192.0.0.171/32", "NAT64/DNS64 Discovery", ["192.0.0.171"]],
  ["192.0.2.0/24", "Documentation (TEST-NET-1)", ["192.0.2.0", "192.0.2.255"]],
  ["192.31.196.0/24", "AS112-v4", ["192.31.196.0", "192.31.196.255"]],
  ["192.52.193.0/24", "AMT", ["192.52.193.0", "192.52.193.255"]],
  ["192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", ["192.88.99.0", "192.88.99.1", "192.88.99.255"]],
  ["192.88.99.2/32", "6a44-relay anycast address", ["192.88.99.2"]],
  ["192.168.0.0/16", "Private-Use", ["192.168.0.0", "192.168.1.1", "192.168.255.255"]],
  ["192.175.48.0/24", "Direct Delegation AS112 Service", ["192.175.48.0", "192.175.48.255"]],
  ["198.18.0.0/15", "Benchmarking", ["198.18.0.0", "198.19.255.255"]],
  ["198.51.100.0/24", "Documentation (TEST-NET-2)", ["198.51.100.0", "198.51.100.255"]],
  ["203.0.113.0/24", "Documentation (TEST-NET-3)", ["203.0.113.0", "203.0.113.255"]],
  ["240.0.0.0/4", "Reserved", ["240.0.0.0", "255.255.255.254"]],
  ["255.255.255.255/32", "Limited Broadcast", ["255.255.255.255"]],
];

/**
 * The IPv6 registry. Three entries carry an IPv4 address and are judged by it (the samples
 * embed special ones; the public ones pass, below): ::ffff:0:0/96, 64:ff9b::/96, 2002::/16.
 */
const IPV6_REGISTRY: [string, string, string[]][] = [
  ["::1/128", "Loopback Address", ["::1"]],
  ["::/128", "Unspecified Address", ["::"]],
  [
    "::ffff:0:0/96",
    "IPv4-mapped Address",
    ["::ffff:0.0.0.0", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:a9fe:a9fe", "::ffff:255.255.255.255"],
  ],
  [
    "64:ff9b::/96",
    "IPv4-IPv6 Translat.",
    ["64:ff9b::", "64:ff9b::127.0.0.1", "64:ff9b::c0a8:101", "64:ff9b::ffff:ffff"],
  ],
  [
    "64:ff9b:1::/48",
    "IPv4-IPv6 Translat.",
    ["64:ff9b:1::", "64:ff9b:1::808:808", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff"],
  ],
  ["100::/64", "Discard-Only Address Block", ["100::", "100::ffff:ffff:ffff:ffff"]],
  ["100:0:0:1::/64", "Dummy IPv6 Prefix", ["100:0:0:1::", "100:0:0:1:ffff:ffff:ffff:ffff"]],
  ["2001::/23", "IETF Protocol Assignments", ["2001:100::", "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff"]],
  ["2001::/32", "TEREDO", ["2001::", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:0:ffff:ffff:ffff:ffff:ffff:ffff"]],
  ["2001:1::1/128", "Port Control Protocol Anycast", ["2001:1::1"]],
  ["2001:1::2/128", "Traversal Using Relays around NAT Anycast", ["2001:1::2"]],
  ["2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", ["2001:1::3"]],
  ["2001:2::/48", "Benchmarking", ["2001:2::", "2001:2:0:ffff:ffff:ffff:ffff:ffff"]],
  ["2001:3::/32", "AMT", ["2001:3::", "2001:3:ffff:ffff:ffff:ffff:ffff:ffff"]],
  ["2001:4:112::/48", "AS112-v6", ["2001:4:112::", "2001:4:112:ffff:ffff:ffff:ffff:ffff"]],
  ["2001:10::/28", "Deprecated (previously ORCHID)", ["2001:10::", "2001:1f:ffff:ffff:ffff:ffff:ffff:ffff"]],
  ["2001:20::/28", "ORCHIDv2", ["2001:20::", "2001:2f:ffff:ffff:ffff:ffff:ffff:ffff"]],
  [
    "2001:30::/28",
    "Drone Remote ID Protocol Entity Tags (DETs) Prefix",
    ["2001:30::", "2001:3f:ffff:ffff:ffff:ffff:ffff:ffff"],
  ],
  ["2001:db8::/32", "Documentation", ["2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"]],
  [
    "2002::/16",
    "6to4",
    [
      "2002::",
      "2002:7f00:1::",
      "2002:a00:1::1",
      "2002:c0a8:101::1",
      "2002:a9fe:a9fe::",
      "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    ],
  ],
  ["2620:4f:8000::/48", "Direct Delegation AS112 Service", ["2620:4f:8000::", "2620:4f:8000:ffff:ffff:ffff:ffff:ffff"]],
  ["3fff::/20", "Documentation", ["3fff::", "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff"]],
  ["5f00::/16", "Segment Routing (SRv6) SIDs", ["5f00::", "5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff"]],
  ["fc00::/7", "Unique-Local", ["fc00::", "fd00::1", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"]],
  ["fe80::/10", "Link-Local Unicast", ["fe80::", "fe80::1", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff"]],
];

/** Refused though in no entry of the registries: multicast, IPv4 embedded the deprecated ways, outside global unicast. */
const ALSO_REFUSED = [
  "224.0.0.0",
  "224.0.0.251",
  "239.255.255.255",
  "::7f00:1",
  "::8.8.8.8",
  "::a00:1", // IPv4-compatible (deprecated)
  "::ffff:0:7f00:1",
  "::ffff:0:8.8.8.8", // SIIT, IPv4-translated
  "fec0::1",
  "feff::1",
  "ff02::1",
  "ff0e::1", // site-local, multicast
  "4000::1",
  "1fff:ffff::1",
  "e000::1",
  "100:0:0:2::1", // outside 2000::/3
];

/** Public: well-known resolvers, the first addresses outside each range, and IPv6 prefixes carrying a public IPv4. */
const PUBLIC = [
  "8.8.8.8",
  "1.1.1.1",
  "9.9.9.9",
  "93.184.215.14",
  "1.0.0.0",
  "9.255.255.255",
  "11.0.0.0",
  "100.63.255.255",
  "100.128.0.0",
  "126.255.255.255",
  "128.0.0.0",
  "169.253.255.255",
  "169.255.0.0",
  "172.15.255.255",
  "172.32.0.0",
  "191.255.255.255",
  "192.0.1.0",
  "192.0.3.0",
  "192.31.195.255",
  "192.31.197.0",
  "192.52.192.255",
  "192.52.194.0",
  "192.88.98.255",
  "192.88.100.0",
  "192.167.255.255",
  "192.169.0.0",
  "192.175.47.255",
  "192.175.49.0",
  "198.17.255.255",
  "198.20.0.0",
  "198.51.99.255",
  "198.51.101.0",
  "203.0.112.255",
  "203.0.114.0",
  "223.255.255.255",
  "2606:4700::1111",
  "2606:4700:4700::1111",
  "2001:4860:4860::8888",
  "2a00:1450:4001::1",
  "2000::1",
  "2001:200::",
  "2001:db7:ffff:ffff:ffff:ffff:ffff:ffff",
  "2001:db9::",
  "2003::",
  "2620:4f:7fff:ffff:ffff:ffff:ffff:ffff",
  "2620:4f:8001::",
  "3ffe::1",
  "3fff:1000::",
  "3fff:ffff::1",
  "::ffff:8.8.8.8",
  "::ffff:808:808",
  "64:ff9b::8.8.8.8",
  "64:ff9b::101:101",
  "2002:808:808::1",
  "2002:101:101::",
];

const STRICT: WebhookPolicy = { allowPrivateNetworks: false, allowedPorts: [443] };

describe("webhook addresses: the IANA special-purpose registries", () => {
  it("every entry of the IPv4 registry is refused, at its edges, with its name", () => {
    for (const [cidr, name, samples] of IPV4_REGISTRY) {
      for (const address of samples) assert.equal(specialAddress(address), `${name}, ${cidr}`, address);
    }
  });

  it("every entry of the IPv6 registry is refused, the IPv4-carrying ones when what they carry is special", () => {
    for (const [cidr, name, samples] of IPV6_REGISTRY) {
      for (const address of samples) {
        const problem = specialAddress(address);
        assert.ok(problem, `${address} (${cidr}) must be refused`);
        if (!["::ffff:0:0/96", "64:ff9b::/96", "2002::/16"].includes(cidr))
          assert.equal(problem, `${name}, ${cidr}`, address);
        else assert.match(problem, /^embeds \d+\.\d+\.\d+\.\d+: /, address);
      }
    }
    assert.equal(specialAddress("64:ff9b::a9fe:a9fe"), "embeds 169.254.169.254: Link Local, 169.254.0.0/16");
    assert.equal(specialAddress("2002:7f00:1::"), "embeds 127.0.0.1: Loopback, 127.0.0.0/8");
  });

  it("multicast, deprecated IPv4 embeddings and everything outside 2000::/3 are refused too", () => {
    for (const address of ALSO_REFUSED) assert.ok(specialAddress(address), address);
    assert.equal(specialAddress("4000::1"), "outside global unicast, 2000::/3");
    assert.equal(specialAddress("fe80::1%eth0"), "a scoped address");
    assert.equal(specialAddress("localhost"), "not an IP address");
  });

  it("public addresses pass, next to every range and inside the IPv4-carrying prefixes", () => {
    for (const address of PUBLIC) assert.equal(specialAddress(address), null, address);
  });
});

describe("webhook addresses: endpoint URLs", () => {
  it("the odd spellings of IPv4 hosts are judged as the URL parser reads them", async () => {
    for (const url of [
      "https://0x7f.1/",
      "https://2130706433/",
      "https://0177.0.0.1/",
      "https://127.1/",
      "https://0x7f000001/",
      "https://017700000001/",
      "https://0300.0250.0.1/",
      "https://0xa9.0xfe.0xa9.0xfe/",
      "https://0/",
      "https://%31%32%37.0.0.1/",
      "https://127.0.0.1./",
      "https://１２７.０.０.１/",
      "https://[0:0:0:0:0:ffff:127.0.0.1]/",
      "https://[::127.0.0.1]/",
      "https://[64:ff9b::10.0.0.1]/",
      "https://[2002:a9fe:a9fe::1]/",
    ])
      assert.equal(await endpointUrlProblem(url, STRICT), "url must be a public https URL", url);
  });

  it("https on an allowed port only; the flag lifts scheme, port and address", async () => {
    const refused = [
      "http://8.8.8.8/",
      "https://8.8.8.8:8443/",
      "https://8.8.8.8:80/",
      "ftp://8.8.8.8/",
      "https://user:pw@8.8.8.8/",
      "https://8.8.8.8/" + "a".repeat(2048),
    ];
    for (const url of refused)
      assert.equal(await endpointUrlProblem(url, STRICT), "url must be a public https URL", url);
    for (const url of [
      "https://8.8.8.8/",
      "https://8.8.8.8:443/",
      "https://[2606:4700::1111]/hook",
      "https://[::ffff:8.8.8.8]/",
      "https://[64:ff9b::8.8.8.8]/",
    ]) {
      assert.equal(await endpointUrlProblem(url, STRICT), null, url);
    }
    assert.equal(await endpointUrlProblem("https://8.8.8.8:8443/", { ...STRICT, allowedPorts: [443, 8443] }), null);
    const open: WebhookPolicy = { allowPrivateNetworks: true, allowedPorts: [443] };
    for (const url of ["http://127.0.0.1:8080/", "https://[::1]:9/", "http://localhost:3000/"])
      assert.equal(await endpointUrlProblem(url, open), null, url);
  });
});

describe("webhook addresses: the connection of every delivery", () => {
  let listener: Server;
  let port: number;
  const sockets: Socket[] = [];
  before(async () => {
    // A plain TCP listener: any connection counts, refused ones must never come.
    listener = createServer((socket) => {
      sockets.push(socket);
      socket.end("HTTP/1.1 204 No Content\r\n\r\n");
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as AddressInfo).port;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => listener.close(resolve));
  });

  /** The outcome of a POST to `url` through a connector with `policy`: a status, or the reason it failed. */
  async function post(url: string, policy: WebhookPolicy): Promise<number | string> {
    const agent = new Agent({ connect: guardedConnector(policy) });
    try {
      return (await request(url, { method: "POST", body: "{}", dispatcher: agent })).statusCode;
    } catch (error) {
      return (error as Error).message;
    } finally {
      await agent.close();
    }
  }

  it("refuses a name that resolves to a private address, IP literals, http and other ports, before connecting", async () => {
    const policy: WebhookPolicy = { allowPrivateNetworks: false, allowedPorts: [443, port] };
    assert.match(
      String(await post(`https://localhost:${port}/hook`, policy)),
      /^refused: localhost resolves to (127\.0\.0\.1|::1), not a public address \(Loopback( Address)?, (127\.0\.0\.0\/8|::1\/128)\); no request was sent$/,
    );
    assert.equal(
      await post(`https://127.0.0.1:${port}/hook`, policy),
      "refused: 127.0.0.1 is not a public address (Loopback, 127.0.0.0/8); no request was sent",
    );
    assert.equal(
      await post(`https://0x7f.1:${port}/hook`, policy),
      "refused: 127.0.0.1 is not a public address (Loopback, 127.0.0.0/8); no request was sent",
    );
    assert.equal(
      await post(`https://[::ffff:127.0.0.1]:${port}/hook`, policy),
      "refused: ::ffff:7f00:1 is not a public address (embeds 127.0.0.1: Loopback, 127.0.0.0/8); no request was sent",
    );
    assert.equal(
      await post(`http://127.0.0.1:${port}/hook`, policy),
      "refused: webhooks are sent over https only; no request was sent",
    );
    assert.equal(
      await post(`https://localhost:${port + 1}/hook`, policy),
      `refused: port ${port + 1} is not one of WEBHOOK_ALLOWED_PORTS (443, ${port}); no request was sent`,
    );
    assert.equal(sockets.length, 0);
  });

  it("WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 connects (the listener answers)", async () => {
    assert.equal(await post(`http://localhost:${port}/hook`, { allowPrivateNetworks: true, allowedPorts: [443] }), 204);
    assert.equal(sockets.length, 1);
  });
});
