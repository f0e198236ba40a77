// The dynamic codes' CSV export (GET /v1/dynqrcodes/export and the pages' download, both
// served from server/http/exports.ts): every live code of a library with its total scans.
import { db } from "../platform/db";
import { sendableUrl } from "../platform/urls";
import { rulesRecordOf } from "../rules";
import { totalScansOf } from "../analytics/analytics";
import { libraryWhere, type Library } from "./library";
import { shortUrl } from "./dynamicRecords";
import { keysetPages } from "./paging";

// The rules come after the contract's first columns; targets and utm as JSON.
export const DYNAMIC_EXPORT_COLUMNS = [
  "code",
  "name",
  "short_url",
  "destination_url",
  "status",
  "team_id",
  "created_at",
  "updated_at",
  "total_scans",
  "expires_at",
  "expired_url",
  "targets",
  "utm",
  "password_protected",
  "metadata",
  "external_id",
  "type",
  "content",
] as const;

/** Every live dynamic code of the library with its total scans, oldest first, a page at a time. */
export async function* dynamicExportRows(library: Library): AsyncGenerator<unknown[][]> {
  const pages = keysetPages((after, take) =>
    db.dynamicCode.findMany({
      where: { ...libraryWhere(library), deletedAt: null, ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: "asc" },
      take,
    }),
  );
  for await (const rows of pages) {
    const total = await totalScansOf(rows.map((r) => r.id));
    yield rows.map((r) => {
      const { expired_url, targets } = rulesRecordOf(r);
      return [
        r.code,
        r.name,
        shortUrl(r.code, r.domain),
        r.type === "url" ? sendableUrl(r.destinationUrl) : null,
        r.status,
        r.teamId,
        r.createdAt,
        r.updatedAt,
        total.get(r.id) ?? 0,
        r.expiresAt,
        expired_url,
        targets && JSON.stringify(targets),
        r.utm,
        r.passwordHash !== null,
        r.metadata ?? "{}",
        r.externalId,
        r.type,
        r.content,
      ];
    });
  }
}
