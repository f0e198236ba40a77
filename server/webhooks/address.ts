// Where a webhook may be sent (contract: "Webhooks"; issue 37): https, on a port of
// WEBHOOK_ALLOWED_PORTS (443 by default), to public addresses only (special-addresses.ts),
// checked when an endpoint is saved and again by every delivery's connection (guardedConnector):
// an IP literal before connecting, a name by the DNS lookup that connection itself uses, so a
// name that resolved public when it was saved and resolves to 127.0.0.1 now is refused, and no
// request is sent. WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 (tests, private deployments) lifts all three:
// http://, any port, any address.
import { lookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { buildConnector } from "undici";
import { env } from "../platform/env";
import { specialAddress } from "./special-addresses";

export type WebhookPolicy = { allowPrivateNetworks: boolean; allowedPorts: readonly number[] };

/** The operator's policy (server/platform/env.ts). */
export const configuredPolicy = (): WebhookPolicy => ({
  allowPrivateNetworks: env.webhookAllowPrivateNetworks,
  allowedPorts: env.webhookAllowedPorts,
});

export const PUBLIC_URL_MESSAGE = "url must be a public https URL";

const portOf = (protocol: string, port: string) => (port ? Number(port) : protocol === "https:" ? 443 : 80);
const unbracketed = (host: string) => host.replace(/^\[|\]$/g, "");

/** Why a connection may not be made for the scheme and port alone, or null. */
function schemeOrPortProblem(protocol: string, port: number, policy: WebhookPolicy): string | null {
  if (policy.allowPrivateNetworks)
    return protocol === "https:" || protocol === "http:" ? null : `${protocol} is not http(s)`;
  if (protocol !== "https:") return "webhooks are sent over https only";
  return policy.allowedPorts.includes(port)
    ? null
    : `port ${port} is not one of WEBHOOK_ALLOWED_PORTS (${policy.allowedPorts.join(", ")})`;
}

/** Why `address` may not be connected to under `policy`, or null. */
const addressProblem = (address: string, policy: WebhookPolicy) =>
  policy.allowPrivateNetworks ? null : specialAddress(address);

/**
 * Why `url` cannot be a webhook endpoint (the contract's one message), or null: https on an
 * allowed port, no credentials, and every address its host resolves to public.
 */
export async function endpointUrlProblem(url: string, policy = configuredPolicy()): Promise<string | null> {
  if (url.length > 2048) return PUBLIC_URL_MESSAGE;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return PUBLIC_URL_MESSAGE;
  }
  if (parsed.username || parsed.password) return PUBLIC_URL_MESSAGE;
  if (schemeOrPortProblem(parsed.protocol, portOf(parsed.protocol, parsed.port), policy)) return PUBLIC_URL_MESSAGE;
  if (policy.allowPrivateNetworks) return null;
  const host = unbracketed(parsed.hostname);
  const addresses = isIP(host) ? [host] : await resolveAll(host).catch(() => []);
  return addresses.length > 0 && addresses.every((a) => addressProblem(a, policy) === null) ? null : PUBLIC_URL_MESSAGE;
}

const resolveAll = (host: string) =>
  new Promise<string[]>((resolve, reject) =>
    lookup(host, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );

/** A refused connection: its message is the reason the delivery log shows. */
const refusal = (reason: string) =>
  Object.assign(new Error(`refused: ${reason}; no request was sent`), { code: "ERR_WEBHOOK_REFUSED" });

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A DNS lookup whose answer fails the connection when any address in it is not public. */
function guardedLookup(policy: WebhookPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const problem = addressProblem(address, policy);
        if (problem)
          return callback(refusal(`${hostname} resolves to ${address}, not a public address (${problem})`), []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * The connector of every delivery (undici's, guarded): the scheme, the port and an IP literal
 * are checked before connecting (Node looks up no literal), a name through guardedLookup.
 */
export function guardedConnector(policy: WebhookPolicy): buildConnector.connector {
  const connect = buildConnector({ lookup: guardedLookup(policy) as never });
  return (options, callback) => {
    const host = unbracketed(options.hostname);
    const special = isIP(host) ? addressProblem(host, policy) : null;
    const problem =
      schemeOrPortProblem(options.protocol, portOf(options.protocol, options.port), policy) ??
      (special && `${host} is not a public address (${special})`);
    if (problem) return callback(refusal(problem), null);
    connect(options, callback);
  };
}
