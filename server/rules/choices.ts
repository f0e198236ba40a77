// The values a rule may take, shared by the API's checks (fields.ts) and the web library's rules
// editor (a client component: nothing here reads the configuration or the database).

/** The analytics' values a target may ask for (server/scan/recorder.ts, describeAgent). */
export const TARGET_OS = [
  "iOS",
  "Android",
  "Windows",
  "Mac OS",
  "Linux",
  "Chromium OS",
  "HarmonyOS",
  "Ubuntu",
] as const;
export const TARGET_DEVICES = ["mobile", "tablet", "desktop", "other"] as const;
export const MAX_TARGETS = 20;
export const UTM_KEYS = ["source", "medium", "campaign", "term", "content"] as const;

/** Region codes that are not countries (ICU knows them as regions: EU, UN, ZZ "Unknown"...). */
const NOT_COUNTRIES = ["AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "QO", "TA", "UN", "XA", "XB", "ZZ"];

/** ISO 3166-1 alpha-2 codes with their English names, by name (ICU's region names). */
function countryTable(): { code: string; name: string }[] {
  const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  return Array.from({ length: 26 * 26 }, (_, i) => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)))
    .filter((code) => !NOT_COUNTRIES.includes(code) && names.of(code) !== undefined)
    .map((code) => ({ code, name: names.of(code)! }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
/** The countries a target may name (and the editor's country picker offers). */
export const COUNTRIES = countryTable();
