// JSON at its longest for its value: every UTF-16 unit of every string (keys included) written
// as a `\uXXXX` escape, as a client may send it (the pages' body bounds must take it).
export function escapedJson(value: unknown): string {
  if (typeof value === "string")
    return `"${Array.from({ length: value.length }, (_, i) => `\\u${value.charCodeAt(i).toString(16).padStart(4, "0")}`).join("")}"`;
  if (Array.isArray(value)) return `[${value.map(escapedJson).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${escapedJson(k)}:${escapedJson(v)}`)
      .join(",")}}`;
  return JSON.stringify(value);
}
