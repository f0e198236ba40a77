// The DNS side of a custom domain's verification: its TXT record, looked up with node:dns on the
// system's resolver, or on DNS_SERVERS (the tests run a DNS server of their own).
import { Resolver } from "node:dns/promises";
import { env } from "../platform/env";
import { processSingleton } from "../platform/process-singleton";

/** A lookup waits this long per try, twice at most: a verify answers within seconds. */
const TIMEOUT_MS = 2000;

export const txtRecordName = (domain: string) => `_qr-records.${domain}`;
export const txtRecordValue = (token: string) => `qr-records-verify=${token}`;

const resolver = processSingleton("domains.resolver", () => {
  const made = new Resolver({ timeout: TIMEOUT_MS, tries: 2 });
  if (env.dnsServers) made.setServers(env.dnsServers);
  return made;
});

/** True when `_qr-records.<domain>` holds `qr-records-verify=<token>` (a record split in strings counts whole). */
export async function txtRecordFound(domain: string, token: string): Promise<boolean> {
  try {
    const records = await resolver.resolveTxt(txtRecordName(domain));
    return records.some((chunks) => chunks.join("") === txtRecordValue(token));
  } catch {
    // No such name, no TXT record, no answer in time: not found, as the message says.
    return false;
  }
}
