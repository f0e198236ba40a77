// Review covers changes to published team codes: a writer's edit of a live code on /business
// waits for an admin (the short link keeps going to the approved destination); the admin sees
// it beside the drafts with before and after and approves it, and then the short link moves;
// a rejected change tells the writer why.
import { expect, test, type Page } from "@playwright/test";
import { createDynamicCodes } from "../server/library/dynamicCodes";
import { updateDynamicCode } from "../server/library/dynamicUpdate";
import { addMember, createTeam } from "../server/teams/teams";
import { reviewDrafts } from "../server/teams/draftReview";
import { account, logIn, openSection, shot } from "./helpers";

const target = async (page: Page, code: string) =>
  (await page.request.get(`/q/${code}`, { maxRedirects: 0 })).headers()["location"];

async function editDestination(page: Page, code: string, url: string) {
  const row = page.getByTestId(`item-${code}`);
  await row.getByRole("button", { name: "Edit" }).click();
  await row.getByLabel("Destination URL").fill(url);
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row.getByTestId(`pending-change-${code}`)).toContainText(url);
}

test("a writer's edit of a live code waits for an admin; approved, the short link moves; rejected, the writer sees why", async ({
  browser,
}) => {
  const owner = await account("change-admin", "business", "Ada Admin");
  const team = await createTeam(owner.id, "Change Team");
  const writer = await account("change-writer", "free", "Wil Writer");
  await addMember(owner.id, writer.email, "writer");
  const asWriter = { userId: writer.id, library: { kind: "team" as const, teamId: team.id }, role: "writer" as const };
  const [menu] = await createDynamicCodes(asWriter, [
    { name: "Table menu", destination_url: "https://example.com/menu/approved" },
  ]);
  await reviewDrafts(owner.id, "approve", [{ kind: "dynamic", id: menu.code }]);

  const writerPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await logIn(writerPage, writer.email, "/business");
  await editDestination(writerPage, menu.code, "https://example.com/menu/winter");
  const row = writerPage.getByTestId(`item-${menu.code}`);
  await expect(row).toContainText("→ https://example.com/menu/approved");
  expect(await target(writerPage, menu.code)).toBe("https://example.com/menu/approved");
  await row.scrollIntoViewIfNeeded();
  await shot(writerPage, "change-review-writer-pending");
  // The writer sees it waiting, and cannot decide it.
  await openSection(writerPage, "Review");
  const writersQueue = writerPage.getByTestId(`change-${menu.code}`);
  await expect(writersQueue).toContainText("waiting for an admin");
  await expect(writersQueue.getByRole("button", { name: "Approve change" })).toHaveCount(0);

  const adminPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await logIn(adminPage, owner.email, "/business?section=review");
  const change = adminPage.getByTestId(`change-${menu.code}`);
  await expect(change).toContainText("Table menu");
  await expect(change).toContainText(writer.email);
  const destinationRow = change.getByRole("row", { name: /Destination URL/ });
  await expect(destinationRow.getByRole("cell").nth(1)).toHaveText("https://example.com/menu/approved");
  await expect(destinationRow.getByRole("cell").nth(2)).toHaveText("https://example.com/menu/winter");
  await adminPage
    .getByRole("region", { name: "Changes to published codes" })
    .screenshot({ path: "e2e/screenshots/change-review-queue.png" });
  await change.getByRole("button", { name: "Approve change" }).click();
  await expect(adminPage.getByTestId("no-pending-changes")).toBeVisible();
  await openSection(adminPage, "Library");
  await expect(adminPage.getByTestId(`item-${menu.code}`)).toContainText("→ https://example.com/menu/winter");
  expect(await target(adminPage, menu.code)).toBe("https://example.com/menu/winter");
  await shot(adminPage, "change-review-approved");

  // Another change, rejected with a reason: the short link stays, the writer reads why.
  await writerPage.goto("/business?section=library");
  await editDestination(writerPage, menu.code, "https://example.com/not-ours");
  await adminPage.goto("/business?section=review");
  const next = adminPage.getByTestId(`change-${menu.code}`);
  await next.getByRole("button", { name: "Reject change" }).click();
  await expect(adminPage.getByTestId(`change-error-${menu.code}`)).toHaveText("Write the reason for the writer");
  await next.getByLabel("Reason for rejecting").fill("That page is not ours");
  await next.getByRole("button", { name: "Reject change" }).click();
  await expect(adminPage.getByTestId("no-pending-changes")).toBeVisible();
  expect(await target(adminPage, menu.code)).toBe("https://example.com/menu/winter");
  await writerPage.reload();
  await expect(writerPage.getByTestId(`change-rejected-${menu.code}`)).toContainText("That page is not ours");
  await writerPage.getByTestId(`item-${menu.code}`).scrollIntoViewIfNeeded();
  await shot(writerPage, "change-review-writer-rejected");
  // Nor can the writer delete the published code.
  writerPage.once("dialog", (dialog) => void dialog.accept());
  await writerPage.getByTestId(`item-${menu.code}`).getByRole("button", { name: "Delete" }).click();
  await expect(writerPage.getByText("Only a team admin can delete a published code")).toBeVisible();
  expect(await target(writerPage, menu.code)).toBe("https://example.com/menu/winter");
  await writerPage.close();
  await adminPage.close();
});

test("a writer's change to a published page's content reads as the page, before and after, not as JSON", async ({
  browser,
}) => {
  const owner = await account("change-page-admin", "business", "Ada Admin");
  const team = await createTeam(owner.id, "Page Team");
  const writer = await account("change-page-writer", "free", "Wil Writer");
  await addMember(owner.id, writer.email, "writer");
  const asWriter = { userId: writer.id, library: { kind: "team" as const, teamId: team.id }, role: "writer" as const };
  const links = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ label: `Menu ${i + 1}`, url: `https://example.com/${i}` }));
  const [page] = await createDynamicCodes(asWriter, [
    { name: "Café page", type: "page", content: { title: "Café Linden", links: links(2) } },
  ]);
  await reviewDrafts(owner.id, "approve", [{ kind: "dynamic", id: page.code }]);
  const { held } = await updateDynamicCode(asWriter, {
    code: page.code,
    content: { title: "Café Linden — winter", links: links(3) },
  });
  expect(held).toBe(true);

  const adminPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await logIn(adminPage, owner.email, "/business?section=review");
  const content = adminPage.getByTestId(`change-${page.code}`).getByRole("row", { name: /Content/ });
  await expect(content.getByRole("cell").nth(1)).toHaveText("Page: Café Linden (2 links)");
  await expect(content.getByRole("cell").nth(2)).toHaveText("Page: Café Linden — winter (3 links)");
  // The type and the (absent) destination it carries along are the same before and after: not listed.
  await expect(adminPage.getByTestId(`change-${page.code}`).getByRole("row")).toHaveCount(2);
  await adminPage
    .getByRole("region", { name: "Changes to published codes" })
    .screenshot({ path: "e2e/screenshots/change-review-page-content.png" });
  await adminPage.close();
  const writerPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await logIn(writerPage, writer.email, "/business?section=library");
  await expect(writerPage.getByTestId(`pending-change-${page.code}`)).toContainText(
    "Content → Page: Café Linden — winter (3 links)",
  );
  await writerPage.close();
});
