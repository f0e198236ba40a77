// A library is where records live: one account's personal library or a team's shared one.
// Which library a request acts on is decided only by the key (or the page) it comes through.
import { actorOf, recordActivity, type ActivityValue } from "../activity";
import type { Tx } from "../platform/db";

export type Library = { kind: "personal"; userId: string } | { kind: "team"; teamId: string };

/** Who acts: the account, the library, and the key if the request came through the API. */
export type Actor = {
  userId: string;
  library: Library;
  apiKeyId?: string;
  /** Team role for team libraries. */
  role?: "admin" | "writer" | "viewer";
  /** The hosts the request reached the service on (server/platform/served-host.ts): destinations on their /q/ are refused. */
  servedHosts?: readonly string[] | null;
};

/** The Prisma filter that confines a query to one library. */
export const libraryWhere = (library: Library) =>
  library.kind === "personal" ? { userId: library.userId, teamId: null } : { teamId: library.teamId };

/** The same confinement as SQL, with `?` for the one parameter `id` (columns of `alias`). */
export function libraryCondition(library: Library, alias: string): { sql: string; id: string } {
  return library.kind === "personal"
    ? { sql: `${alias}."userId" = ? AND ${alias}."teamId" IS NULL`, id: library.userId }
    : { sql: `${alias}."teamId" = ?`, id: library.teamId };
}

/** Owner columns of a new record in the library. */
export const libraryOwner = (library: Library) =>
  library.kind === "personal" ? { userId: library.userId, teamId: null } : { userId: null, teamId: library.teamId };

/** New items of a team library wait for an admin's review; personal ones are live at once. */
export const initialReviewStatus = (library: Library): "draft" | "active" =>
  library.kind === "team" ? "draft" : "active";

/** A team code as its activity entries name it. */
export type CodeRef = { kind: "static" | "dynamic"; target: string; name: string };

/**
 * Changes to codes of a team library, on the team's activity log, each with what the code was
 * before and is after (the fields that changed; a personal library keeps no log). In `tx`, the
 * change's own transaction.
 */
export async function recordCodeActivity(
  tx: Tx,
  actor: Pick<Actor, "userId" | "library" | "apiKeyId">,
  action:
    | "code.created"
    | "code.updated"
    | "code.deleted"
    | "code.change_requested"
    | "code.change_approved"
    | "code.change_rejected",
  changes: (CodeRef & {
    before?: Record<string, ActivityValue> | null;
    after?: Record<string, ActivityValue> | null;
    more?: Record<string, ActivityValue>;
  })[],
): Promise<void> {
  if (actor.library.kind !== "team" || changes.length === 0) return;
  const teamId = actor.library.teamId;
  const by = await actorOf(actor.userId, tx);
  const via = actor.apiKeyId ? "API" : "web";
  await recordActivity(
    changes.map(({ kind, target, name, before = null, after = null, more }) => ({
      teamId,
      actor: by,
      action,
      target,
      detail: { name, kind, via, before, after, ...more },
    })),
    tx,
  );
}

/** A deleted code of a team library, with what it was, on the team's activity log. */
export const recordCodeDeleted = (tx: Tx, actor: Actor, code: CodeRef, before: Record<string, ActivityValue>) =>
  recordCodeActivity(tx, actor, "code.deleted", [{ ...code, before }]);
