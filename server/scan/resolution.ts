// What a short link needs of a code, made from its stored row: by the cache (resolve.ts) and
// by the copy of every code kept in Redis (live-copy), which both read the same columns.
import { resolvedRulesOf, type ResolvedRules, type RuleColumns } from "../rules";
import { hostedOfRow, type Hosted } from "../hosted/content";

/**
 * What a short link needs of a code; an active code's rules ride along (absent when unset),
 * `expiresAt` included, so an expiry takes effect on time without any invalidation. Plain
 * data: it may be copied as JSON.
 */
export type Resolution =
  | ({
      state: "active";
      id: string;
      /** "" for a hosted code, whose page is made of `hosted` (and travels in the live copy with it). */
      destinationUrl: string;
      hosted?: Hosted;
    } & ResolvedRules)
  | { state: "draft" | "paused" | "deleted" | "unknown"; id?: string };

/** The columns a resolution is made of (the copy, live-copy, reads the same, with the code). */
export const RESOLUTION_COLUMNS = {
  id: true,
  code: true,
  domain: true,
  status: true,
  type: true,
  destinationUrl: true,
  content: true,
  deletedAt: true,
  expiresAt: true,
  expiredUrl: true,
  targets: true,
  utm: true,
  passwordHash: true,
} as const;

/** A stored row (its RESOLUTION_COLUMNS) as the short link resolves it; null: no such code. */
export function resolutionOf(
  row:
    | ({
        id: string;
        status: string;
        type: string;
        destinationUrl: string;
        content: string | null;
        deletedAt: Date | null;
      } & RuleColumns)
    | null,
): Resolution {
  if (!row) return { state: "unknown" };
  if (row.deletedAt) return { state: "deleted", id: row.id };
  if (row.status !== "active") return { state: row.status as "draft" | "paused", id: row.id };
  const { destination, rules } = resolvedRulesOf(row);
  const hosted = hostedOfRow(row);
  if (hosted) return { state: "active", id: row.id, destinationUrl: "", hosted, ...rules };
  return { state: "active", id: row.id, destinationUrl: destination(row.destinationUrl), ...rules };
}

/** The key of a short link in the caches and the copy: the code on the service's base, `<domain>/<code>` on a custom domain (a code holds no `/`). */
export const linkKey = (domain: string, code: string) => (domain === "" ? code : `${domain}/${code}`);
