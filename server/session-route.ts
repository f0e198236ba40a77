// Plain route handlers of the web pages (downloads, images): the session's account, and
// domain errors as short plain-text answers with the status of the one mapping table.
import { sessionUserId } from "./auth";
import { DomainError, HTTP_STATUS } from "./errors";

const plain = (status: number, message: string) => new Response(`${message}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export function sessionRoute<P>(handler: (userId: string, req: Request, params: P) => Promise<Response | null>) {
  return async (req: Request, { params }: { params: Promise<P> }): Promise<Response> => {
    const userId = await sessionUserId();
    if (!userId) return plain(401, "Log in first");
    try {
      return (await handler(userId, req, await params)) ?? plain(404, "Not found");
    } catch (error) {
      if (error instanceof DomainError) return plain(HTTP_STATUS[error.kind], error.message);
      throw error;
    }
  };
}
