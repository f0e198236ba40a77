// The analytics page's live panel: one code's scans in the last 60 minutes, for the logged-in account.
import { liveScans } from "@/server/analytics/scanEvents";
import { libraryOfItemFor } from "@/server/library/libraryItems";
import { jsonAnswer } from "@/server/http/answer";
import { sessionRoute } from "@/server/http/session-route";

export const dynamic = "force-dynamic";

export const GET = sessionRoute<{ code: string }>(async (userId, _req, { code }) => {
  const library = await libraryOfItemFor(userId, "dynamic", code);
  if (!library) return null;
  return jsonAnswer(200, await liveScans(library, code), { "Cache-Control": "no-store" });
});
