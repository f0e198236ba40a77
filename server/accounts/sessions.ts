// Sessions that can be ended (contract: "Accounts for real"). A session is next-auth's JWT,
// which carries the account's session version from its log-in; server/accounts/auth.ts reads the
// version from the database whenever a page or a page's call reads the session, and a session
// whose version differs counts as logged out. Raising the version therefore ends every
// session of the account on its next request, on every instance. /v1 and /q never read a
// session, so this costs them nothing.
import { db, type Tx } from "../platform/db";

/** Ends every session of the account (in `client`'s transaction when given); returns the new version. */
export async function endSessions(userId: string, client: Tx | typeof db = db): Promise<number> {
  const user = await client.user.update({
    where: { id: userId },
    data: { sessionVersion: { increment: 1 } },
    select: { sessionVersion: true },
  });
  return user.sessionVersion;
}

/** The version a live session of the account carries, or null when the account is gone. */
export async function liveSessionVersion(userId: string): Promise<number | null> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { sessionVersion: true, deletedAt: true } });
  return user && !user.deletedAt ? user.sessionVersion : null;
}
