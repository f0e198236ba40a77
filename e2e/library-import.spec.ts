// The CSV import on /library and /business (issue 21): a 1,200-row file with two bad lines is
// refused before anything is created, both lines named; the fixed file imports with the
// progress bar reaching 100 %; a reload mid-import and the same file again end with exactly
// 1,200 records; a team writer's import becomes drafts.
import { expect, test, type Page } from "@playwright/test";
import { db } from "../server/platform/db";
import { addMember, createTeam } from "../server/teams/teams";
import { account, logIn, openSection, shotAtWidths } from "./helpers";

const ROWS = 1200;

/** A dynamic codes' file: header on line 1, row i on line i + 2; `broken` rows replaced by what they say. */
function csv(prefix: string, rows = ROWS, broken: Record<number, string> = {}): Buffer {
  const lines = ["name,destination_url,status"];
  for (let i = 0; i < rows; i++)
    lines.push(broken[i + 2] ?? `"${prefix} ${i}, table card",https://example.com/${prefix}/${i},`);
  return Buffer.from(lines.join("\r\n") + "\r\n");
}

const choose = (page: Page, name: string, buffer: Buffer) =>
  page.getByLabel("CSV file", { exact: true }).setInputFiles({ name, mimeType: "text/csv", buffer });
const codesOf = (where: { userId?: string; teamId?: string }) =>
  db.dynamicCode.count({ where: { ...where, deletedAt: null } });

test("a 1,200-row file: refused with both bad lines named, then imported to 100 %", async ({ page }) => {
  test.setTimeout(120_000);
  const user = await account("csv-import", "pro", "Cass Import");
  await logIn(page, user.email, "/library");
  const panel = page.getByTestId("csv-import-personal");
  await expect(panel.getByRole("heading", { name: "Import a CSV file" })).toBeVisible();

  await choose(page, "menus.csv", csv("Menu", ROWS, { 58: "Menu 56,not a url,", 901: ",https://example.com/x," }));
  const refused = panel.getByTestId("import-refused");
  await expect(refused).toContainText("Nothing was created: 2 of 1,200 rows of menus.csv are invalid.");
  await expect(panel.getByTestId("import-problems").locator("li")).toHaveText([
    "Line 58: Destination URL must be an absolute http or https URL",
    "Line 901: Name must be 1 to 200 characters (after trimming)",
  ]);
  await expect(panel.getByRole("button", { name: /^Import/ })).toHaveCount(0);
  expect(await codesOf({ userId: user.id })).toBe(0);
  await shotAtWidths(page, "library-import-refused");

  await choose(page, "menus.csv", csv("Menu"));
  await expect(panel.getByTestId("import-ready")).toContainText("menus.csv: all 1,200 rows are valid (dynamic codes).");
  await shotAtWidths(page, "library-import-ready");
  await panel.getByRole("button", { name: "Import 1,200 dynamic codes" }).click();
  await expect(panel.getByTestId("import-summary")).toHaveText("Done: 1,200 dynamic codes created.", {
    timeout: 60_000,
  });
  await expect(panel.getByTestId("import-progress")).toHaveJSProperty("value", ROWS);
  await expect(panel.getByTestId("import-progress")).toHaveJSProperty("max", ROWS);
  await expect(panel.getByTestId("import-progress-text")).toHaveText("1,200 of 1,200 rows (100 %)");
  await expect(page.getByTestId("page-of")).toContainText("1,200 codes");
  expect(await codesOf({ userId: user.id })).toBe(ROWS);
  // A quoted name keeps its comma.
  expect(
    await db.dynamicCode.count({
      where: { userId: user.id, name: "Menu 7, table card", destinationUrl: "https://example.com/Menu/7" },
    }),
  ).toBe(1);
  await shotAtWidths(page, "library-import-done");
});

test("a reload mid-import, then the same file again: exactly 1,200 records", async ({ page }) => {
  test.setTimeout(120_000);
  const user = await account("csv-resume", "pro", "Remy Resume");
  await logIn(page, user.email, "/library");
  const panel = page.getByTestId("csv-import-personal");
  const file = csv("Resume");
  await choose(page, "resume.csv", file);
  await expect(panel.getByTestId("import-ready")).toBeVisible();

  // The 8th batch reaches the server, which creates it, but its answer never reaches the page:
  // the page is reloaded in that moment (the hardest case for a resume: done, not known).
  let batches = 0;
  let eighthDone!: () => void;
  const eighth = new Promise<void>((resolve) => (eighthDone = resolve));
  await page.route(
    (url) => url.pathname.includes("libraryImport.batch"),
    async (route) => {
      if (++batches < 8) return route.continue();
      await route.fetch();
      await route.abort();
      eighthDone();
    },
  );
  await panel.getByRole("button", { name: "Import 1,200 dynamic codes" }).click();
  await eighth;
  await page.unrouteAll();
  await page.reload();
  expect(await codesOf({ userId: user.id })).toBe(400);
  await expect(panel.getByTestId("import-unfinished")).toHaveText(
    "The import of resume.csv stopped after 350 of 1,200 rows. Choose the same file to finish it: what was created is not created again.",
  );
  await shotAtWidths(page, "library-import-unfinished");

  await choose(page, "resume.csv", file);
  await panel.getByRole("button", { name: "Import 1,200 dynamic codes" }).click();
  await expect(panel.getByTestId("import-summary")).toHaveText(
    "Done: 800 dynamic codes created, 400 already imported from this file before (not created again).",
    {
      timeout: 60_000,
    },
  );
  await expect(panel.getByTestId("import-progress-text")).toHaveText("1,200 of 1,200 rows (100 %)");
  expect(await codesOf({ userId: user.id })).toBe(ROWS);
  expect(
    new Set((await db.dynamicCode.findMany({ where: { userId: user.id }, select: { name: true } })).map((c) => c.name))
      .size,
  ).toBe(ROWS);
  await expect(panel.getByTestId("import-unfinished")).toHaveCount(0);
});

test("a team writer's import becomes drafts waiting for an admin", async ({ page }) => {
  const admin = await account("csv-team-admin", "business", "Ada Admin");
  const writer = await account("csv-team-writer", "free", "Wren Writer");
  const team = await createTeam(admin.id, "Import Team");
  await addMember(admin.id, writer.email, "writer");
  await logIn(page, writer.email, "/business?section=create");
  const panel = page.getByTestId("csv-import-team");
  await expect(panel).toContainText("New team codes are drafts until an admin approves them");

  // A writer may not publish: a row asking for `active` is refused, named by its line.
  await choose(page, "team.csv", csv("Team", 120, { 7: "Team 5,https://example.com/t/5,active" }));
  await expect(panel.getByTestId("import-problems").locator("li")).toHaveText([
    "Line 7: Only a team admin can publish",
  ]);
  expect(await codesOf({ teamId: team.id })).toBe(0);

  await choose(page, "team.csv", csv("Team", 120));
  await panel.getByRole("button", { name: "Import 120 dynamic codes" }).click();
  await expect(panel.getByTestId("import-summary")).toHaveText("Done: 120 dynamic codes created.");
  expect(await db.dynamicCode.count({ where: { teamId: team.id, status: "draft" } })).toBe(120);
  await shotAtWidths(page, "team-library-import-done");
  await openSection(page, "Review");
  await expect(page.getByTestId("review-queue").locator("li").first()).toContainText("table card");
});
