// Bitly: the JSON of its API v4 listing, GET /v4/groups/{group_guid}/bitlinks (one page
// `{"links": [...], "pagination": {...}}`, or the pages in an array). A link's branded
// back-halves (`custom_bitlinks`) are links of their own: every printed one keeps working.
// No clicks: Bitly gives them per link from another endpoint (docs/IMPORTERS.md).
import { cellsOf, collect, field, itemsOf, jsonOf, linkOf, type Reader } from "./common";

export const readBitly: Reader = (raw) => {
  const items = itemsOf(jsonOf(raw, "Bitly"), "links", "Bitly");
  return collect(
    items.flatMap((item, i) => {
      const cells = cellsOf(item);
      const custom = field(item, "custom_bitlinks");
      const shortUrls = [field(item, "link") ?? field(item, "id"), ...(Array.isArray(custom) ? custom : [])];
      const tags = field(item, "tags");
      return [...new Set(shortUrls.map(String))].map((shortUrl) =>
        linkOf(i + 1, cells, {
          shortUrl,
          destination: field(item, "long_url") as string,
          title: field(item, "title") as string,
          created: field(item, "created_at") as string,
          tags: Array.isArray(tags) ? tags.map(String) : [],
          archived: field(item, "archived") === true,
        }),
      );
    }),
  );
};
