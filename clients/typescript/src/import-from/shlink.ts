// Shlink: short_urls.csv, the web client's "Export" of the short URLs list: createdAt, domain,
// shortCode, shortUrl, longUrl, title, tags ("|" between them; "," before the client's 3.x),
// visits (the total). Older files lack domain and shortCode: both are read from shortUrl.
import { collect, csvRows, linkOf, type Reader } from "./common";

export const readShlink: Reader = (raw, readCsv) =>
  collect(
    csvRows(raw, readCsv, "Shlink", ["shortUrl", "longUrl"]).map(({ line, cells, cell }) =>
      linkOf(line, cells, {
        shortUrl: cell("shortUrl"),
        code: cell("shortCode"),
        host: cell("domain"),
        destination: cell("longUrl"),
        title: cell("title"),
        created: cell("createdAt"),
        tags: cell("tags").split(cell("tags").includes("|") ? "|" : ","),
        clicks: cell("visits"),
      }),
    ),
  );
