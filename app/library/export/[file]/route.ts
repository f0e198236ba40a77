// The library pages' CSV download (/library and the team library on /business): the same file
// as GET /v1/qrcodes/export or /v1/dynqrcodes/export, for the logged-in account's library
// (`?scope=personal`, the default, or `team`).
import { actorFor, libraryKindField } from "@/server/library/libraryItems";
import { isLibraryExport, libraryExportAnswer } from "@/server/http/exports";
import { sessionRoute } from "@/server/http/session-route";

export const dynamic = "force-dynamic";

export const GET = sessionRoute<{ file: string }>(async (userId, req, { file }) => {
  const name = file.replace(/\.csv$/, "");
  const scope = libraryKindField.safeParse(new URL(req.url).searchParams.get("scope") ?? "personal");
  if (!file.endsWith(".csv") || !isLibraryExport(name) || !scope.success) return null;
  return libraryExportAnswer(name, (await actorFor(userId, scope.data, null)).library);
});
