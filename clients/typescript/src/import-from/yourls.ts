// YOURLS: the JSON of its API's stats action (yourls-api.php?action=stats&filter=last&limit=N
// &format=json): `{"links": {"link_1": {shorturl, url, title, timestamp, ip, clicks}, ...},
// "stats": {...}}`, one answer or several (paged with `start`) in an array. The timestamp is
// MySQL's "YYYY-MM-DD HH:MM:SS" (read as UTC); clicks come as a string.
import { cellsOf, collect, field, jsonOf, linkOf, type Reader } from "./common";

export const readYourls: Reader = (raw) => {
  const value = jsonOf(raw, "YOURLS");
  const answers = Array.isArray(value) ? value : [value];
  const items = answers.flatMap((answer) => {
    const links = field(answer, "links");
    if (typeof links !== "object" || links === null)
      throw new Error('Not YOURLS\'s JSON export: expected the stats answer, with "links"');
    return Object.values(links);
  });
  return collect(
    items.map((item, i) =>
      linkOf(i + 1, cellsOf(item), {
        shortUrl: field(item, "shorturl") as string,
        destination: field(item, "url") as string,
        title: field(item, "title") as string,
        created: field(item, "timestamp") as string,
        clicks: field(item, "clicks") as string,
      }),
    ),
  );
};
