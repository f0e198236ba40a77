// The library pages' CSV import (libraryImport.check and libraryImport.batch, what
// components/library/CsvImport.tsx sends), against the real server: every row checked by the API's
// rules with its line named and nothing created; batches created once per file and position,
// so sending a file again creates only what is missing; statuses and the team's drafts.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { http, logIn, makeTeam, personalKey, TEST_PASSWORD } from "../helpers";

type Row = { line: number; name: string; url: string; status?: string };
type Dynamic = { name: string; destination_url: string; status: string };

const rows = (count: number, from = 0): Row[] =>
  Array.from({ length: count }, (_, i) => ({
    line: from + i + 2,
    name: `Menu ${from + i}`,
    url: `https://example.com/m/${from + i}`,
  }));
const fileHash = (text: string) => createHash("sha256").update(text).digest("hex");

async function dynamics(key: string): Promise<Dynamic[]> {
  const all: Dynamic[] = [];
  let cursor: string | null = null;
  do {
    const body = (await http("GET", `/v1/dynqrcodes?limit=100${cursor ? `&cursor=${cursor}` : ""}`, { key })).body as {
      dynqrcodes: Dynamic[];
      next_cursor: string | null;
    };
    all.push(...body.dynqrcodes);
    cursor = body.next_cursor;
  } while (cursor);
  return all;
}

describe("library CSV import", () => {
  it("checks every row by the API's rules, names each bad line in the labels' words, and creates nothing", async () => {
    const { user, key } = await personalKey();
    const page = await logIn(user.email, TEST_PASSWORD);
    const sent = rows(6);
    sent[1] = { ...sent[1], url: "javascript:alert(1)" };
    sent[3] = { ...sent[3], name: "  " };
    sent[4] = { ...sent[4], status: "draft" };
    sent[5] = { ...sent[5], status: "archived" };
    assert.deepEqual(await page("libraryImport.check", { scope: "personal", kind: "dynamic", rows: sent }), {
      problems: [
        { line: 3, error: "Destination URL must be an absolute http or https URL" },
        { line: 5, error: "Name must be 1 to 200 characters (after trimming)" },
        { line: 6, error: "status draft is only for team library items: use active or paused" },
        { line: 7, error: "status must be one of active, paused, draft" },
      ],
    });
    assert.deepEqual(
      await page("libraryImport.check", {
        scope: "personal",
        kind: "static",
        rows: [{ line: 9, name: "Wi-Fi", url: "ftp://example.com" }],
      }),
      {
        problems: [{ line: 9, error: "URL must be an absolute http or https URL" }],
      },
    );
    // A batch is checked again: the same rows are refused with their lines, nothing created.
    await assert.rejects(
      page("libraryImport.batch", {
        scope: "personal",
        kind: "dynamic",
        file: fileHash("bad"),
        position: 0,
        rows: sent,
      }),
      (e: Error) => {
        assert.match(e.message, /^Line 3: Destination URL must be an absolute http or https URL\nLine 5: Name must be/);
        return true;
      },
    );
    await assert.rejects(
      page("libraryImport.check", { scope: "personal", kind: "static", rows: rows(1001) }),
      /Send at most 1000 rows at once/,
    );
    await assert.rejects(
      page("libraryImport.batch", {
        scope: "personal",
        kind: "static",
        file: fileHash("x"),
        position: 0,
        rows: rows(51),
      }),
      /Send at most 50 rows at once/,
    );
    await assert.rejects(
      page("libraryImport.batch", {
        scope: "personal",
        kind: "static",
        file: "not-a-hash",
        position: 0,
        rows: rows(1),
      }),
      /file must be the SHA-256/,
    );
    assert.deepEqual(await dynamics(key), []);
    assert.deepEqual((await http("GET", "/v1/qrcodes", { key })).body, { qrcodes: [], next_cursor: null });
  });

  it("creates each batch once per file and position: the same file again replays and creates only what is missing", async () => {
    const { user, key } = await personalKey();
    const page = await logIn(user.email, TEST_PASSWORD);
    const file = fileHash(`import ${user.id}`);
    const all = rows(120);
    const batch = (position: number, hash = file) =>
      page("libraryImport.batch", {
        scope: "personal",
        kind: "dynamic",
        file: hash,
        position,
        rows: all.slice(position * 50, position * 50 + 50),
      });
    // The first run stops after two batches (a closed tab)...
    assert.deepEqual(await batch(0), { created: 50, replayed: false });
    assert.deepEqual(await batch(1), { created: 50, replayed: false });
    // ...and the same file imported again replays them and creates the rest.
    assert.deepEqual(await batch(0), { created: 50, replayed: true });
    assert.deepEqual(await batch(1), { created: 50, replayed: true });
    assert.deepEqual(await batch(2), { created: 20, replayed: false });
    const made = await dynamics(key);
    assert.equal(made.length, 120);
    assert.equal(new Set(made.map((d) => d.name)).size, 120);
    // Other rows under the same file and position are refused (and create nothing).
    await assert.rejects(
      page("libraryImport.batch", { scope: "personal", kind: "dynamic", file, position: 2, rows: rows(20, 500) }),
      /Idempotency-Key was used with a different request/,
    );
    // Another file (another hash) is another import.
    assert.deepEqual(await batch(2, fileHash("another file")), { created: 20, replayed: false });
    assert.equal((await dynamics(key)).length, 140);
  });

  it("sets each row's status when the actor may; a team's rows are drafts, a writer cannot publish, a viewer cannot import", async () => {
    const { user, key } = await personalKey();
    const page = await logIn(user.email, TEST_PASSWORD);
    const withStatus: Row[] = [
      { line: 2, name: "Paused one", url: "https://example.com/p", status: "paused" },
      { line: 3, name: "Active one", url: "https://example.com/a", status: "active" },
      { line: 4, name: "Default one", url: "https://example.com/d", status: "" },
    ];
    assert.deepEqual(
      await page("libraryImport.batch", {
        scope: "personal",
        kind: "dynamic",
        file: fileHash("statuses"),
        position: 0,
        rows: withStatus,
      }),
      { created: 3, replayed: false },
    );
    assert.deepEqual((await dynamics(key)).map((d) => [d.name, d.status]).sort(), [
      ["Active one", "active"],
      ["Default one", "active"],
      ["Paused one", "paused"],
    ]);

    const team = await makeTeam();
    const writer = await team.addWriter();
    const viewer = await team.addMember("viewer");
    const writerPage = await logIn(writer.user.email, TEST_PASSWORD);
    assert.deepEqual(await writerPage("libraryImport.check", { scope: "team", kind: "dynamic", rows: withStatus }), {
      problems: [{ line: 3, error: "Only a team admin can publish" }],
    });
    const drafts = withStatus.filter((r) => r.status !== "active");
    assert.deepEqual(
      await writerPage("libraryImport.batch", {
        scope: "team",
        kind: "dynamic",
        file: fileHash("team"),
        position: 0,
        rows: drafts,
      }),
      { created: 2, replayed: false },
    );
    assert.deepEqual(
      await writerPage("libraryImport.batch", {
        scope: "team",
        kind: "static",
        file: fileHash("team"),
        position: 0,
        rows: rows(2),
      }),
      { created: 2, replayed: false },
    );
    const queue = (await writerPage.query("library.page", { scope: "team", drafts: true })) as {
      items: { name: string; kind: string }[];
    };
    assert.deepEqual(queue.items.map((i) => `${i.kind} ${i.name}`).sort(), [
      "dynamic Default one",
      "static Menu 0",
      "static Menu 1",
    ]);
    // The admin may publish on import: the code is active and counted as reviewed by them.
    const adminPage = await logIn(team.admin.email, TEST_PASSWORD);
    assert.deepEqual(
      await adminPage("libraryImport.batch", {
        scope: "team",
        kind: "dynamic",
        file: fileHash("admin"),
        position: 0,
        rows: [withStatus[1]],
      }),
      { created: 1, replayed: false },
    );
    const teamCodes = await dynamics(team.adminKey);
    assert.deepEqual(teamCodes.map((d) => [d.name, d.status]).sort(), [
      ["Active one", "active"],
      ["Default one", "draft"],
      ["Paused one", "paused"],
    ]);

    const viewerPage = await logIn(viewer.email, TEST_PASSWORD);
    await assert.rejects(
      viewerPage("libraryImport.check", { scope: "team", kind: "dynamic", rows: drafts }),
      /Viewers only read the team library/,
    );
    await assert.rejects(
      viewerPage("libraryImport.batch", {
        scope: "team",
        kind: "dynamic",
        file: fileHash("viewer"),
        position: 0,
        rows: drafts,
      }),
      /Viewers only read the team library/,
    );
    assert.equal((await dynamics(team.adminKey)).length, 3);
  });
});
