// Words the pages show with numbers and codes.

/** "1 scan", "2 scans", "0 scans" (a count with its noun, in the grammatical number it takes). */
export const plural = (count: number, one: string, many = `${one}s`) =>
  `${count.toLocaleString("en")} ${count === 1 ? one : many}`;

const regions = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** A scan's country as people name it ("Germany"); ZZ, a country not known, is "Unknown". */
export function countryName(code: string): string {
  if (code === "ZZ" || !/^[A-Z]{2}$/.test(code)) return "Unknown";
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}
