// Kutt: the JSON of its API v2 listing, GET /api/v2/links?limit=&skip= (one page
// `{"limit", "skip", "total", "data": [...]}`, or the pages in an array). A link: address (the
// back-half), link (the short URL), target, description, created_at, visit_count, banned.
// A link Kutt banned (malware, phishing) is refused, not moved.
import { cellsOf, collect, field, itemsOf, jsonOf, linkOf, type Reader } from "./common";

export const readKutt: Reader = (raw) =>
  collect(
    itemsOf(jsonOf(raw, "Kutt"), "data", "Kutt").map((item, i) => {
      const cells = cellsOf(item);
      if (field(item, "banned") === true) return { line: i + 1, error: "banned at Kutt: not moved", cells };
      return linkOf(i + 1, cells, {
        shortUrl: field(item, "link") as string,
        code: field(item, "address") as string,
        destination: field(item, "target") as string,
        title: field(item, "description") as string,
        created: field(item, "created_at") as string,
        clicks: field(item, "visit_count") as number,
      });
    }),
  );
