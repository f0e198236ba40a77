// The web library's QR images and downloads: the API's renderer, for the logged-in account.
import { imageQuery, qrImage } from "@/server/images/images";
import { libraryOfItemFor } from "@/server/library/libraryItems";
import { imageAnswer } from "@/server/http/answer";
import { sessionRoute } from "@/server/http/session-route";

export const dynamic = "force-dynamic";

export const GET = sessionRoute<{ kind: string; id: string }>(async (userId, req, { kind, id }) => {
  if (kind !== "static" && kind !== "dynamic") return null;
  const library = await libraryOfItemFor(userId, kind, id);
  if (!library) return null;
  const { download, ...query } = Object.fromEntries(new URL(req.url).searchParams);
  return imageAnswer(await qrImage(`user:${userId}`, library, kind, id, imageQuery.parse(query)), download === "1");
});
