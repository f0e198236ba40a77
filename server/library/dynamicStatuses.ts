// Who may set which status of a dynamic code: one rule for a PATCH, the CSV import's rows and
// the statuses the library pages offer.
import { DomainError } from "../platform/errors";
import type { Actor } from "./library";
import type { DynamicStatus } from "./dynamicRecords";

/** Who may set which status: personal owners active/paused; team writers draft/paused; admins all. */
export function settableStatuses(actor: Pick<Actor, "library" | "role">): DynamicStatus[] {
  if (actor.library.kind === "personal") return ["active", "paused"];
  return actor.role === "admin" ? ["active", "paused", "draft"] : ["paused", "draft"];
}

/** Why `actor` may not give a code `status`, or null. */
export function statusChangeProblem(actor: Pick<Actor, "library" | "role">, status: DynamicStatus): DomainError | null {
  if (settableStatuses(actor).includes(status)) return null;
  if (actor.library.kind === "personal")
    return new DomainError("invalid", "status draft is only for team library items: use active or paused");
  return new DomainError("forbidden", "Only a team admin can publish");
}

export function checkStatusChange(actor: Actor, status: DynamicStatus): void {
  const problem = statusChangeProblem(actor, status);
  if (problem) throw problem;
}
