// The sections of /business, one shown at a time and named in the address (?section=members),
// so a person jumps between them and a link opens the one it names (issue 39).
import type { Role } from "@/server/teams/teams";

const SECTIONS = [
  { id: "library", label: "Library" },
  { id: "create", label: "Create", writes: true },
  { id: "review", label: "Review" },
  { id: "members", label: "Members" },
  { id: "keys", label: "Keys" },
  { id: "webhooks", label: "Webhooks", admins: true },
  { id: "brand-kits", label: "Brand kits", admins: true },
  { id: "domains", label: "Domains", admins: true },
  { id: "activity", label: "Activity", admins: true },
] as const satisfies readonly { id: string; label: string; writes?: true; admins?: true }[];

export type SectionId = (typeof SECTIONS)[number]["id"];

/** The sections a member with `role` sees: creating takes a writer, webhooks, domains, brand kits and the log an admin. */
export const sectionsFor = (role: Role) =>
  SECTIONS.filter((s) => !(("admins" in s && role !== "admin") || ("writes" in s && role === "viewer")));

/** The section `asked` names if the member sees it, else the first (the library). */
export function sectionOf(asked: string | null | undefined, role: Role): SectionId {
  return sectionsFor(role).find((s) => s.id === asked)?.id ?? "library";
}
