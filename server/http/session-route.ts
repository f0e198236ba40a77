// Plain route handlers of the web pages (downloads, images): the session's account, and
// domain errors as short plain-text answers with the status of the one error table.
import { sessionUserId } from "../accounts/auth";
import { domainErrorOf } from "../platform/errors";
import { plainAnswer, toResponse, type Answer } from "./answer";

export function sessionRoute<P>(handler: (userId: string, req: Request, params: P) => Promise<Answer | null>) {
  return async (req: Request, { params }: { params: Promise<P> }): Promise<Response> => {
    const userId = await sessionUserId();
    if (!userId) return toResponse(plainAnswer(401, "Log in first"));
    try {
      return toResponse((await handler(userId, req, await params)) ?? plainAnswer(404, "Not found"));
    } catch (error) {
      const domain = domainErrorOf(error);
      if (domain) {
        const answer = plainAnswer(domain.status, domain.message);
        return toResponse({ ...answer, headers: { ...answer.headers, ...domain.headers } });
      }
      throw error;
    }
  };
}
