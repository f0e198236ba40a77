// The library pages' ZIP of QR images (/library and the team library on /business): the same
// archive as GET /v1/qrcodes/images.zip and /v1/dynqrcodes/images.zip, of the codes the person
// ticked or of every code of a search, for the logged-in account's library (`?scope=personal`,
// the default, or `team`).
import { libraryImagesZip } from "@/server/images/imagesZip";
import { actorFor, libraryKindField } from "@/server/library/libraryItems";
import { zipAnswer } from "@/server/http/answer";
import { sessionRoute } from "@/server/http/session-route";

export const dynamic = "force-dynamic";

export const GET = sessionRoute<Record<string, never>>(async (userId, req) => {
  const { scope, ...query } = Object.fromEntries(new URL(req.url).searchParams);
  const library = libraryKindField.safeParse(scope ?? "personal");
  if (!library.success) return null;
  return zipAnswer(
    await libraryImagesZip(`user:${userId}`, (await actorFor(userId, library.data, null)).library, query),
  );
});
