// The team library on /business: a writer adds a code by hand (a draft), a viewer sees it
// with no edit controls, the admin approves it and the library shows it active.
import { expect, test } from "@playwright/test";
import { addMember, createTeam } from "../server/teams/teams";
import { account, logIn, openSection, shot } from "./helpers";

test("writers add drafts, viewers only read, admins publish", async ({ browser }) => {
  const admin = await account("team-admin", "business", "Ada Admin");
  const writer = await account("team-writer", "free", "Wes Writer");
  const viewer = await account("team-viewer", "free", "Vi Viewer");
  await createTeam(admin.id, "Library Team");
  await addMember(admin.id, writer.email, "writer");
  await addMember(admin.id, viewer.email, "viewer");

  const writerPage = await browser.newPage();
  await logIn(writerPage, writer.email, "/business?section=create");
  await writerPage.getByLabel("Name", { exact: true }).fill("Team flyer");
  await writerPage.getByLabel("Destination URL", { exact: true }).fill("https://example.com/flyer");
  await writerPage.getByRole("button", { name: "Create", exact: true }).click();
  await expect(writerPage.getByLabel("Name", { exact: true })).toHaveValue("");
  await openSection(writerPage, "Library");
  const writerRow = writerPage.locator('[data-testid^="item-"]', { hasText: "Team flyer" });
  await expect(writerRow.locator(".badge.draft")).toHaveText("draft");
  // A writer may pause or keep a draft, but not publish.
  await writerRow.getByRole("button", { name: "Edit" }).click();
  await expect(writerRow.getByLabel("Status").locator("option")).toHaveText(["paused", "draft"]);
  await shot(writerPage, "team-library-writer");
  const testId = (await writerRow.getAttribute("data-testid"))!;
  await openSection(writerPage, "Review");
  await expect(writerPage.locator('[data-testid^="draft-"]', { hasText: "Team flyer" })).toContainText(
    "waiting for an admin",
  );

  const viewerPage = await browser.newPage();
  await logIn(viewerPage, viewer.email, "/business");
  const viewerRow = viewerPage.getByTestId(testId);
  await expect(viewerRow).toContainText("Team flyer");
  await expect(viewerPage.getByTestId("read-only")).toBeVisible();
  for (const name of ["Create", "Create all", "Edit", "Style", "Delete"]) {
    await expect(viewerPage.getByRole("button", { name, exact: true })).toHaveCount(0);
  }
  await expect(viewerRow.getByRole("link", { name: "Download PNG" })).toBeVisible();
  await shot(viewerPage, "team-library-viewer");

  const adminPage = await browser.newPage();
  await logIn(adminPage, admin.email, "/business?section=review");
  await adminPage.getByTestId(testId.replace("item-", "draft-")).getByRole("button", { name: "Approve" }).click();
  await expect(adminPage.getByTestId(testId.replace("item-", "draft-"))).toHaveCount(0);
  await openSection(adminPage, "Library");
  await expect(adminPage.getByTestId(testId).locator(".badge.active")).toHaveText("active");
  await shot(adminPage, "team-library-admin");
});
