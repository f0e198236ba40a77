// The analytics page's CSV download: the API's scan export, for the logged-in account.
import { rangeQuery } from "@/server/analytics/dateRange";
import { scanExport } from "@/server/analytics/scanEvents";
import { libraryOfItemFor } from "@/server/library/libraryItems";
import { csvAnswer } from "@/server/http/answer";
import { sessionRoute } from "@/server/http/session-route";

export const dynamic = "force-dynamic";

export const GET = sessionRoute<{ code: string }>(async (userId, req, { code }) => {
  const library = await libraryOfItemFor(userId, "dynamic", code);
  if (!library) return null;
  const query = rangeQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
  const { stem, columns, pages } = await scanExport(library, code, query);
  return csvAnswer(stem, columns, pages);
});
