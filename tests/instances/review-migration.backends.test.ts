// The `review_covers_changes` migration on a database with team codes (on the backend of the
// run): every migration before it, codes as the old schema stored them, then the migration.
// Published are the team codes active now and those an admin once approved (reviewedAt) that
// were paused or set back to draft since; not a code a writer paused straight from draft, a
// rejected (deleted) one, or a personal code.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dialect, migrationIndex, migrations, scratchDatabase, script } from "../scratch-database";

const target = migrationIndex("review_covers_changes");
const at = (iso: string) =>
  dialect === "sqlite" ? `'${iso.slice(0, 23)}+00:00'` : `'${iso.slice(0, 23).replace("T", " ")}'`;
const REVIEWED = "2026-05-01T10:00:00.000Z";
const UPDATED = "2026-06-01T10:00:00.000Z";

// code, team?, status, reviewed?, deleted?, published after the migration?
const CODES: [string, boolean, string, boolean, boolean, boolean][] = [
  ["activeRv", true, "active", true, false, true],
  ["activeNo", true, "active", false, false, true],
  ["pausedRv", true, "paused", true, false, true],
  ["pausedNo", true, "paused", false, false, false],
  ["draftNo0", true, "draft", false, false, false],
  ["draftRv0", true, "draft", true, false, true],
  ["rejected", true, "draft", true, true, false],
  ["personal", false, "active", false, false, false],
];

describe("the review_covers_changes migration", () => {
  it("marks published the team codes an admin made active, and only those", async () => {
    assert.ok(target > 0, "the migration exists");
    const db = await scratchDatabase();
    try {
      for (const m of migrations.slice(0, target)) await db.exec(script(m));
      if (dialect === "sqlite") await db.exec("PRAGMA foreign_keys = OFF");
      for (const [code, team, status, reviewed, deleted] of CODES) {
        await db.exec(
          `INSERT INTO "DynamicCode" ("id", "code", "userId", "teamId", "createdById", "name", "destinationUrl", "style", "status", "reviewedAt", "deletedAt", "createdAt", "updatedAt") VALUES ` +
            `('dyn_${code}', '${code}', ${team ? "NULL" : "'user_1'"}, ${team ? "'team_1'" : "NULL"}, 'user_1', '${code}', 'https://example.com/', '{}', '${status}', ` +
            `${reviewed ? at(REVIEWED) : "NULL"}, ${deleted ? at(UPDATED) : "NULL"}, ${at(REVIEWED)}, ${at(UPDATED)})`,
        );
      }
      await db.exec(script(migrations[target]));
      const rows = await db.rows<{ code: string; published: unknown; fromReview: unknown; fromUpdate: unknown }>(
        `SELECT "code", "publishedAt" IS NOT NULL AS "published", "publishedAt" = "reviewedAt" AS "fromReview", "publishedAt" = "updatedAt" AS "fromUpdate" FROM "DynamicCode" ORDER BY "code"`,
      );
      const truth = (value: unknown) => value === true || value === 1;
      assert.deepEqual(
        rows
          .filter((r) => truth(r.published))
          .map((r) => r.code)
          .sort(),
        CODES.filter((c) => c[5])
          .map((c) => c[0])
          .sort(),
      );
      // When: the approval's time where there was one, else the last change's.
      for (const row of rows.filter((r) => truth(r.published))) {
        const reviewed = CODES.find((c) => c[0] === row.code)![3];
        assert.ok(truth(reviewed ? row.fromReview : row.fromUpdate), row.code);
      }
      const empty = await db.rows<{ n: unknown }>(
        `SELECT COUNT(*) AS "n" FROM "DynamicCode" WHERE "pendingChange" IS NOT NULL OR "changeRejection" IS NOT NULL`,
      );
      assert.equal(Number(empty[0].n), 0);
    } finally {
      await db.close();
    }
  });
});
