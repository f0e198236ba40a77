// The library's rules that need no database: who may set which status, what a writer's PATCH
// of a published team code holds back and what approving it writes (pendingChanges.ts), the
// before and after an activity entry keeps, stale saves (staleSave.ts), and the CSV import's
// row checks (libraryImport.ts, checkImportRows: every row's first problem, by line).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DomainError } from "../../server/platform/errors";
import { settableStatuses, statusChangeProblem } from "../../server/library/dynamicStatuses";
import type { Actor } from "../../server/library/library";
import { checkImportRows } from "../../server/library/libraryImport";
import {
  approvedColumns,
  changedFields,
  heldPart,
  needsAdmin,
  pendingComparison,
  storedChange,
  storedChangeOf,
} from "../../server/teams/pendingChanges";
import { refuseStale } from "../../server/library/staleSave";

const personal: Actor = { userId: "u1", library: { kind: "personal", userId: "u1" } };
const team = (role: "admin" | "writer" | "viewer"): Actor => ({
  userId: "u2",
  library: { kind: "team", teamId: "t1" },
  role,
});

describe("statuses", () => {
  it("personal owners: active and paused; team writers: draft and paused; admins: all", () => {
    assert.deepEqual(settableStatuses(personal), ["active", "paused"]);
    assert.deepEqual(settableStatuses(team("writer")), ["paused", "draft"]);
    assert.deepEqual(settableStatuses(team("admin")), ["active", "paused", "draft"]);
  });

  it("a refused status says why: draft is for teams (400), publishing for admins (403)", () => {
    assert.equal(statusChangeProblem(personal, "active"), null);
    const draft = statusChangeProblem(personal, "draft")!;
    assert.deepEqual(
      [draft.code, draft.message],
      ["invalid", "status draft is only for team library items: use active or paused"],
    );
    const publish = statusChangeProblem(team("writer"), "active")!;
    assert.deepEqual([publish.code, publish.message], ["forbidden", "Only a team admin can publish"]);
  });

  it("an admin must decide only for a team writer or viewer on a published code", () => {
    assert.equal(needsAdmin(team("writer"), true), true);
    assert.equal(needsAdmin(team("viewer"), true), true);
    assert.equal(needsAdmin(team("writer"), false), false);
    assert.equal(needsAdmin(team("admin"), true), false);
    assert.equal(needsAdmin(personal, true), false);
  });
});

describe("held changes", () => {
  it("a writer's PATCH holds back where the code leads, the password as a flag; name and style are not held", () => {
    assert.equal(heldPart({}), null);
    assert.deepEqual(heldPart({ destination_url: "https://example.com/b", targets: null, password: "s3cret" }), {
      destination_url: "https://example.com/b",
      targets: null,
      password_set: true,
    });
    assert.deepEqual(heldPart({ password: null }), { password_set: false });
    assert.equal(heldPart({ name: "x", style: {} } as never), null);
  });

  it("stored with who asked and when; approving writes only the fields it holds, the new password's hash among them", () => {
    const at = new Date("2026-11-01T12:00:00.900Z");
    const by = { id: "u2", email: "writer@example.com" };
    const text = storedChange(
      { expires_at: 1798761600, utm: { source: "qr" }, password_set: true },
      by,
      "hash-of-new",
      at,
    );
    const stored = storedChangeOf(text)!;
    assert.deepEqual(
      [stored.by, stored.by_id, stored.created_at, stored.password_hash],
      ["writer@example.com", "u2", Math.floor(at.getTime() / 1000), "hash-of-new"],
    );
    assert.deepEqual(approvedColumns(stored), {
      utm: '{"source":"qr"}',
      expiresAt: new Date(1798761600 * 1000),
      passwordHash: "hash-of-new",
    });
    const removal = storedChangeOf(
      storedChange({ password_set: false, targets: null, destination_url: "https://example.com/c" }, by, "ignored", at),
    )!;
    assert.equal(removal.password_hash, undefined, "no hash is kept for a removal");
    assert.deepEqual(approvedColumns(removal), {
      destinationUrl: "https://example.com/c",
      targets: null,
      passwordHash: null,
    });
  });
});

describe("before and after, as activity entries keep them", () => {
  it("only the fields that changed, each side's value; nothing changed is null", () => {
    const before = {
      name: "Menu",
      destination_url: "https://example.com/a",
      status: "active",
      targets: null,
      utm: { source: "qr" },
    };
    assert.equal(changedFields(before, { ...before, utm: { source: "qr" } }), null, "equal by value, not identity");
    assert.deepEqual(changedFields(before, { ...before, destination_url: "https://example.com/b", targets: [] }), {
      before: { destination_url: "https://example.com/a", targets: null },
      after: { destination_url: "https://example.com/b", targets: [] },
    });
    assert.deepEqual(
      changedFields({ name: "a" }, { name: "a", expires_at: null }),
      null,
      "absent and null are the same",
    );
  });

  it("a logo is kept by its size only, never its 64 KiB", () => {
    const logo = `data:image/png;base64,${"A".repeat(1000)}`;
    const change = changedFields({ style: {} }, { style: { foreground: "#111111", logo } })!;
    assert.deepEqual(change.after, { style: { foreground: "#111111", logo: `(image, ${logo.length} characters)` } });
  });

  it("a pending change against the live values: password_set against password_protected", () => {
    const live = { destination_url: "https://example.com/a", password_protected: false, name: "Menu" };
    assert.deepEqual(pendingComparison(live, { destination_url: "https://example.com/b", password_set: true }), {
      before: { destination_url: "https://example.com/a", password_protected: false },
      after: { destination_url: "https://example.com/b", password_set: true },
    });
  });
});

describe("stale saves", () => {
  const updatedAt = new Date("2026-11-01T12:00:00.700Z");
  const refused = (fn: () => void, message: RegExp) =>
    assert.throws(
      fn,
      (e: unknown) => e instanceof DomainError && e.code === "precondition_failed" && message.test(e.message),
    );

  it("a page's save names the millisecond it loaded: a later change refuses it", () => {
    refuseStale(updatedAt, { updatedAt, from: "page" });
    refuseStale(updatedAt, undefined);
    refused(() => refuseStale(updatedAt, { updatedAt: new Date(updatedAt.getTime() - 1), from: "page" }), /reload/);
  });

  it("If-Unmodified-Since has whole seconds: the same second passes, the next is refused", () => {
    refuseStale(updatedAt, { updatedAt: new Date("2026-11-01T12:00:00Z"), from: "header" });
    refused(
      () =>
        refuseStale(new Date("2026-11-01T12:00:01.000Z"), {
          updatedAt: new Date("2026-11-01T12:00:00Z"),
          from: "header",
        }),
      /If-Unmodified-Since/,
    );
  });
});

describe("CSV import rows", () => {
  const rows = (...cells: [string, string, string?][]) =>
    cells.map(([name, url, status], i) => ({ line: i + 2, name, url, ...(status === undefined ? {} : { status }) }));

  it("every row's first problem, named by its line, under the API's rules", async () => {
    const problems = await checkImportRows(
      personal,
      "dynamic",
      rows(
        ["Menu", "https://example.com/menu"],
        ["", "https://example.com/x"],
        ["Bad", "ftp://example.com/"],
        ["Draft", "https://example.com/d", "draft"],
        ["Odd", "https://example.com/o", "live"],
        ["Paused", "https://example.com/p", " paused "],
      ),
    );
    assert.deepEqual(problems, [
      { line: 3, error: "name must be 1 to 200 characters (after trimming)" },
      { line: 4, error: "destination_url must be an absolute http or https URL" },
      { line: 5, error: "status draft is only for team library items: use active or paused" },
      { line: 6, error: "status must be one of active, paused, draft" },
    ]);
  });

  it("static rows take no status; a team writer may not publish; a short link on the host reached is a loop", async () => {
    assert.deepEqual(await checkImportRows(personal, "static", rows(["A", "https://example.com/", "active"])), [
      { line: 2, error: "status is only for dynamic codes" },
    ]);
    assert.deepEqual(
      await checkImportRows(
        team("writer"),
        "dynamic",
        rows(["A", "https://example.com/", "active"], ["B", "https://example.com/", "draft"]),
      ),
      [{ line: 2, error: "Only a team admin can publish" }],
    );
    const served: Actor = { ...personal, servedHosts: ["qr.example"] };
    assert.deepEqual(await checkImportRows(served, "static", rows(["Loop", "https://qr.example/q/AbCd1234"])), [
      { line: 2, error: "url must not point to this service's own /q/ short links" },
    ]);
  });

  it("a viewer may not import at all", async () => {
    await assert.rejects(
      checkImportRows(team("viewer"), "static", rows(["A", "https://example.com/"])),
      (e: unknown) => e instanceof DomainError && e.code === "forbidden",
    );
  });
});
