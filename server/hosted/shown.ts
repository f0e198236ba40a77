// One line that says where a dynamic code leads, where the pages show a destination (the
// library's rows, the review queue, a rejected draft's notice): its URL, or what its hosted page holds.
import { contentSummary } from "../codeTypes/summary";
import { sendableUrl } from "../platform/urls";
import { hostedOfRow } from "./content";

/** `https://example.com/menu`, `Contact: Zoë Müller · Müller & Söhne`, `Page: Café Linden (3 links)`. */
export function dynamicShownText(row: { type: string; destinationUrl: string; content: string | null }): string {
  const hosted = hostedOfRow(row);
  if (!hosted) return sendableUrl(row.destinationUrl);
  if (hosted.type === "vcard") return contentSummary("vcard", hosted.content);
  const { title, links } = hosted.content;
  return `Page: ${title} (${links.length} ${links.length === 1 ? "link" : "links"})`.replace(/\s+/g, " ");
}
