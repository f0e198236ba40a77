// The analytics page's CSV download: the API's scan export, for the logged-in account.
import { scanExportResponse } from "@/server/domain/analytics";
import { libraryOfItemFor } from "@/server/domain/libraryItems";
import { sessionRoute } from "@/server/session-route";

export const dynamic = "force-dynamic";

export const GET = sessionRoute<{ code: string }>(async (userId, req, { code }) => {
  const library = await libraryOfItemFor(userId, "dynamic", code);
  return library && scanExportResponse(library, code, new URL(req.url).searchParams);
});
