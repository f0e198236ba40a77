// Dub: the CSV of "Export links" (GET /api/links/export), columns named by their labels:
// Short link, Destination URL, Clicks, Created at (the defaults), and optionally Link ID,
// Updated at, Tags (", " between names), Archived (Yes/No), Leads, Conversions, Revenue.
import { collect, csvRows, linkOf, type Reader } from "./common";

export const readDub: Reader = (raw, readCsv) =>
  collect(
    csvRows(raw, readCsv, "Dub", ["Short link", "Destination URL"]).map(({ line, cells, cell }) =>
      linkOf(line, cells, {
        shortUrl: cell("Short link"),
        destination: cell("Destination URL"),
        created: cell("Created at"),
        clicks: cell("Clicks"),
        tags: cell("Tags").split(","),
        archived: cell("Archived").toLowerCase() === "yes",
      }),
    ),
  );
