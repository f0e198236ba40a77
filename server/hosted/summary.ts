// What a hosted page holds, on one line: the library's rows and a pending change's before and
// after. Types only from the rest of the folder, so the pages' bundle can import it.
import { contentSummary } from "../codeTypes/summary";
import type { Hosted } from "./content";

/** `Contact: Zoë Müller · Müller & Söhne`, `Page: Café Linden (3 links)`. */
export function hostedSummary(hosted: Hosted): string {
  if (hosted.type === "vcard") return contentSummary("vcard", hosted.content);
  const { title, links } = hosted.content;
  return `Page: ${title} (${links.length} ${links.length === 1 ? "link" : "links"})`.replace(/\s+/g, " ");
}
