// qr-records analytics [CODE]: the library's or one code's scan figures as a table, or the API's JSON.
import type { AnalyticsSummary, Client, CodeAnalytics } from "../client";

/** Columns padded to their widest cell; numbers right-aligned. */
export function table(rows: (string | number)[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => (typeof c === "number" ? String(c).padStart(widths[i]) : c.padEnd(widths[i])))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function summaryText(a: AnalyticsSummary): string {
  return [
    `Scans from ${a.from} to ${a.to} (${a.tz})`,
    "",
    table([
      ["CODE", "NAME", "SCANS", "UNIQUE"],
      ...a.codes.map((c) => [c.code, c.name, c.total_scans, c.unique_scans]),
      ["TOTAL", "", a.total_scans, a.unique_scans],
    ]),
  ].join("\n");
}

function codeText(a: CodeAnalytics): string {
  const breakdown = (title: string, rows: { name: string; scans: number }[]) =>
    rows.length ? ["", table([[title, "SCANS"], ...rows.map((r) => [r.name, r.scans])])] : [];
  return [
    `Code ${a.code}: scans from ${a.from} to ${a.to} (${a.tz})`,
    `Total scans: ${a.total_scans}`,
    `Unique scans: ${a.unique_scans}`,
    "",
    table([["DATE", "SCANS", "UNIQUE"], ...(a.daily ?? []).map((d) => [d.date, d.scans, d.unique_scans])]),
    ...breakdown(
      "COUNTRY",
      a.countries.map((c) => ({ name: c.country, scans: c.scans })),
    ),
    ...breakdown(
      "DEVICE",
      a.devices.map((d) => ({ name: d.device, scans: d.scans })),
    ),
    ...breakdown(
      "OS",
      a.operating_systems.map((o) => ({ name: o.os, scans: o.scans })),
    ),
    ...breakdown(
      "BROWSER",
      a.browsers.map((b) => ({ name: b.browser, scans: b.scans })),
    ),
  ].join("\n");
}

export async function analytics(
  client: Client,
  options: { code?: string; from?: string; to?: string; tz?: string; json: boolean },
): Promise<string> {
  const query = { from: options.from, to: options.to, tz: options.tz };
  if (options.code) {
    const a = await client.unwrap(
      client.api.GET("/dynqrcodes/{code}/analytics", { params: { path: { code: options.code }, query } }),
    );
    return options.json ? JSON.stringify(a, null, 2) : codeText(a);
  }
  const a = await client.unwrap(client.api.GET("/dynqrcodes/analytics", { params: { query } }));
  return options.json ? JSON.stringify(a, null, 2) : summaryText(a);
}
