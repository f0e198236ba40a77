// A team draft's downloads say that its short link answers 404 until an admin approves it
// (issue 39, point 6): a note beside them in the library and `-draft-not-live` in the file's
// name; once approved, neither.
import { expect, test } from "@playwright/test";
import { addMember, createTeam } from "../server/teams/teams";
import { reviewDrafts } from "../server/teams/draftReview";
import { account, logIn, shot } from "./helpers";

test("a draft's downloads say it is not live yet, beside the buttons and in the file name", async ({ page }) => {
  const admin = await account("draft-admin", "business", "Dora Drafts");
  const writer = await account("draft-writer", "free", "Will Writer");
  await createTeam(admin.id, "Draft Team");
  await addMember(admin.id, writer.email, "writer");

  // Created in the team page's Create section, then found in its Library section.
  await logIn(page, writer.email, "/business?section=create");
  await page.getByLabel("Name", { exact: true }).fill("Spring poster");
  await page.getByLabel("Destination URL", { exact: true }).fill("https://example.com/spring");
  await Promise.all([
    page.waitForResponse((res) => res.url().includes("library.create") && res.ok()),
    page.getByRole("button", { name: "Create", exact: true }).click(),
  ]);
  await page.goto("/business?section=library");
  const row = page.locator('[data-testid^="item-"]', { hasText: "Spring poster" });
  await expect(row.locator(".badge.draft")).toHaveText("draft");
  const code = (await row.getAttribute("data-testid"))!.replace("item-", "");
  await expect(row.getByTestId(`not-live-${code}`)).toContainText("short link answers 404 until an admin approves it");
  await shot(page, "draft-downloads");
  const [png] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: "Download PNG" }).click(),
  ]);
  expect(png.suggestedFilename()).toBe(`qr-${code}-draft-not-live.png`);
  const [pdf] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: "Download PDF" }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe(`qr-${code}-draft-not-live.pdf`);

  await reviewDrafts(admin.id, "approve", [{ kind: "dynamic", id: code }]);
  await page.reload();
  await expect(row.locator(".badge.active")).toHaveText("active");
  await expect(row.getByTestId(`not-live-${code}`)).toHaveCount(0);
  const [live] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: "Download PNG" }).click(),
  ]);
  expect(live.suggestedFilename()).toBe(`qr-${code}.png`);
});
