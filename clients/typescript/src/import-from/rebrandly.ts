// Rebrandly: the JSON of its API listing, GET /v1/links (an array of links; pages fetched
// with `last` as an array of those arrays). A link: slashtag (the back-half), shortUrl
// ("rebrand.ly/abc", no scheme), destination, title, createdAt, clicks, domain.fullName.
import { cellsOf, collect, field, jsonOf, linkOf, type Reader } from "./common";

export const readRebrandly: Reader = (raw) => {
  const value = jsonOf(raw, "Rebrandly");
  if (!Array.isArray(value)) throw new Error("Not Rebrandly's JSON export: expected the array of links");
  const items = value.flatMap((v: unknown) => (Array.isArray(v) ? v : [v]));
  return collect(
    items.map((item, i) =>
      linkOf(i + 1, cellsOf(item), {
        shortUrl: field(item, "shortUrl") as string,
        code: field(item, "slashtag") as string,
        host: field(field(item, "domain"), "fullName") as string,
        destination: field(item, "destination") as string,
        title: field(item, "title") as string,
        created: field(item, "createdAt") as string,
        clicks: field(item, "clicks") as number,
      }),
    ),
  );
};
