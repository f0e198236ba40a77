// The web library's QR images and downloads: the API's renderer, for the logged-in account.
import { qrImageResponse } from "@/server/domain/images";
import { libraryOfItemFor } from "@/server/domain/libraryItems";
import { sessionRoute } from "@/server/session-route";

export const dynamic = "force-dynamic";

export const GET = sessionRoute<{ kind: string; id: string }>(async (userId, req, { kind, id }) => {
  if (kind !== "static" && kind !== "dynamic") return null;
  const library = await libraryOfItemFor(userId, kind, id);
  const query = new URL(req.url).searchParams;
  return library && qrImageResponse(library, kind, id, query, query.get("download") === "1");
});
