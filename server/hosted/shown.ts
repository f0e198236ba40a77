// One line that says where a dynamic code leads, where the pages show a destination (the
// library's rows, the review queue, a rejected draft's notice): its URL, or what its hosted page holds.
import { sendableUrl } from "../platform/urls";
import { hostedOfRow } from "./content";
import { hostedSummary } from "./summary";

/** `https://example.com/menu`, `Contact: Zoë Müller · Müller & Söhne`, `Page: Café Linden (3 links)`. */
export function dynamicShownText(row: { type: string; destinationUrl: string; content: string | null }): string {
  const hosted = hostedOfRow(row);
  return hosted ? hostedSummary(hosted) : sendableUrl(row.destinationUrl);
}
