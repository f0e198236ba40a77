// The analytics page's CSV download: the API's scan export, for the logged-in account.
import { sessionUserId } from "@/server/auth";
import { libraryOfCodeFor, scanExportResponse } from "@/server/domain/analytics";
import { DomainError } from "@/server/errors";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  const userId = await sessionUserId();
  if (!userId) return new Response("Log in first\n", { status: 401, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const library = await libraryOfCodeFor(userId, code);
  if (!library) return new Response("Not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  try {
    return await scanExportResponse(library, code, new URL(req.url).searchParams);
  } catch (error) {
    if (error instanceof DomainError) return new Response(`${error.message}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    throw error;
  }
}
