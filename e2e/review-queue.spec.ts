// The review queue on /business with 300 drafts: a page of 20, a kind filter and a search,
// bulk Approve / Reject of the selected drafts (Reject asks first; all or none), and the errors
// of Approve, a role change and Remove at their own row, focused, cleared by the next change.
import { expect, test } from "@playwright/test";
import { db } from "../server/platform/db";
import { createDynamicCodes } from "../server/library/dynamicCodes";
import { createStaticCodes } from "../server/library/staticCodes";
import { addMember, createTeam, removeMember } from "../server/teams/teams";
import { reviewDrafts } from "../server/teams/draftReview";
import { account, logIn, openSection, shot } from "./helpers";

test("300 drafts: paged, filtered, reviewed in bulk; errors at their row", async ({ browser }) => {
  const owner = await account("queue-admin", "business", "Quinn Admin");
  const team = await createTeam(owner.id, "Queue Team");
  const writer = await account("queue-writer", "free", "Wil Writer");
  await addMember(owner.id, writer.email, "writer");
  // Removed meanwhile (in another tab) before the admin changes them: the server refuses.
  const leaver = await account("queue-leaver", "free", "Lea Leaver");
  await addMember(owner.id, leaver.email, "writer");
  const asWriter = { userId: writer.id, library: { kind: "team" as const, teamId: team.id }, role: "writer" as const };
  const drafts = [];
  for (let batch = 0; batch < 6; batch++) {
    drafts.push(
      ...(await createDynamicCodes(
        asWriter,
        Array.from({ length: 50 }, (_, i) => ({
          name: `Draft ${batch * 50 + i}`,
          destination_url: `https://example.com/d/${batch * 50 + i}`,
        })),
      )),
    );
  }
  await createStaticCodes(
    asWriter,
    [1, 2, 3].map((i) => ({ name: `Leaflet ${i}`, url: `https://example.com/leaflet/${i}` })),
  );

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    const page = await browser.newPage({ viewport });
    await logIn(page, owner.email, "/business?section=review");
    const queue = page.getByTestId("review-queue");
    await expect(queue.locator("li")).toHaveCount(20);
    await expect(page.getByTestId("queue-page-of")).toHaveText("Page 1 of 16 · 303 drafts");
    await shot(page, `review-queue-${viewport.width}`);
    await page
      .getByRole("region", { name: "Review queue" })
      .screenshot({ path: `e2e/screenshots/review-queue-section-${viewport.width}.png` });
    // Members is one click away, within the first screen, not below hundreds of drafts.
    await openSection(page, "Members");
    const members = (await page.getByRole("heading", { name: "Members", exact: true }).boundingBox())!;
    expect(members.y).toBeLessThan(viewport.height);
    await page
      .getByRole("region", { name: "Members" })
      .screenshot({ path: `e2e/screenshots/members-section-${viewport.width}.png` });
    await page.close();
  }

  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await logIn(page, owner.email, "/business?section=review");
  const queue = page.getByTestId("review-queue");
  const pageOf = page.getByTestId("queue-page-of");

  // The kind filter and the search.
  await page.getByLabel("Kind of draft").selectOption("static");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(queue.locator("li")).toHaveCount(3);
  await expect(queue).toContainText("Leaflet 1");
  await expect(pageOf).toHaveCount(0);
  await page.getByLabel("Kind of draft").selectOption("");
  await page.getByLabel("Search drafts").fill("Draft 29");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(queue.locator("li")).toHaveCount(11); // Draft 29 and Draft 290–299
  await page.getByLabel("Search drafts").fill("");
  await page.getByRole("button", { name: "Filter" }).click();
  await page
    .getByRole("navigation", { name: "Pages of the review queue" })
    .getByRole("button", { name: "Next" })
    .click();
  await expect(pageOf).toHaveText("Page 2 of 16 · 303 drafts");
  await page
    .getByRole("navigation", { name: "Pages of the review queue" })
    .getByRole("button", { name: "Previous" })
    .click();
  await expect(pageOf).toHaveText("Page 1 of 16 · 303 drafts");

  // Bulk Approve of two selected drafts.
  const [newest, second, third, fourth] = drafts.slice(-4).reverse();
  await page.getByLabel(`Select ${newest.name}`, { exact: true }).check();
  await page.getByLabel(`Select ${second.name}`, { exact: true }).check();
  await page.getByRole("button", { name: "Approve selected (2)" }).click();
  await expect(page.getByTestId(`draft-${newest.code}`)).toHaveCount(0);
  await expect(page.getByTestId(`draft-${second.code}`)).toHaveCount(0);
  await expect(pageOf).toHaveText("Page 1 of 16 · 301 drafts");
  expect(
    (await db.dynamicCode.findMany({ where: { code: { in: [newest.code, second.code] } } })).map((d) => d.status),
  ).toEqual(["active", "active"]);

  // All or none: one of the selection approved meanwhile, the other stays a draft.
  await page.getByLabel(`Select ${third.name}`, { exact: true }).check();
  await page.getByLabel(`Select ${fourth.name}`, { exact: true }).check();
  await reviewDrafts(owner.id, "approve", [{ kind: "dynamic", id: third.code }]);
  await page.getByRole("button", { name: "Approve selected (2)" }).click();
  const bulkError = page.getByTestId("bulk-error");
  await expect(bulkError).toHaveText("1 of 2 selected drafts is no longer a draft in your team: nothing was changed");
  await expect(bulkError).toBeFocused();
  expect((await db.dynamicCode.findFirstOrThrow({ where: { code: fourth.code } })).status).toBe("draft");
  await page.getByLabel(`Select ${fourth.name}`, { exact: true }).uncheck();
  await expect(bulkError).toHaveCount(0);

  // Bulk Reject asks for the reason first: cancelled changes nothing; given, it rejects the whole page.
  await page.reload();
  await page.getByLabel("Select all on this page").check();
  await page.getByRole("button", { name: "Reject selected (20)" }).click();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(queue.locator("li")).toHaveCount(20);
  const firstPage = await queue
    .locator("li")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-testid")!.replace("draft-", "")));
  await page.getByRole("button", { name: "Reject selected (20)" }).click();
  await page.getByLabel("Reason for rejecting 20 drafts").fill("Test batch, not for print");
  await page.getByRole("button", { name: "Reject and delete" }).click();
  await expect(pageOf).toHaveText("Page 1 of 14 · 280 drafts");
  // Three static drafts (deleted) and 17 dynamic ones (kept, deleted, so their codes are never reused).
  expect(await db.staticCode.count({ where: { id: { in: firstPage } } })).toBe(0);
  expect(await db.dynamicCode.count({ where: { code: { in: firstPage }, deletedAt: { not: null } } })).toBe(17);

  // Approve's error at its row (the draft was rejected meanwhile), focused, not at the top.
  const [gone, kept] = await queue
    .locator("li")
    .evaluateAll((rows) => rows.slice(0, 2).map((row) => row.getAttribute("data-testid")!.replace("draft-", "")));
  await reviewDrafts(owner.id, "reject", [{ kind: "dynamic", id: gone }], "Another tab");
  await page.getByTestId(`draft-${gone}`).getByRole("button", { name: "Approve" }).click();
  const rowError = page.getByTestId(`draft-error-${gone}`);
  await expect(rowError).toHaveText(
    new RegExp(
      `^This draft was already rejected by ${owner.email.replace(/[.+]/g, "\\$&")} at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`,
    ),
  );
  await expect(rowError).toBeFocused();
  await expect(page.getByTestId("team-error")).toHaveCount(0);
  await page
    .getByRole("region", { name: "Review queue" })
    .screenshot({ path: "e2e/screenshots/review-queue-row-error.png" });
  // The next change clears it.
  await page.getByTestId(`draft-${kept}`).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId(`draft-${kept}`)).toHaveCount(0);
  await expect(rowError).toHaveCount(0);

  // A role change and Remove of a member removed meanwhile: their errors at the member's row.
  // (The owner's own row offers neither: the server keeps the owner an admin and in the team.)
  await openSection(page, "Members");
  await expect(page.getByTestId(`member-${owner.email}`).getByRole("combobox")).toHaveCount(0);
  await removeMember(owner.id, leaver.id);
  const leaverRole = page.getByLabel(`Role of ${leaver.email}`);
  await leaverRole.selectOption("viewer");
  const memberError = page.getByTestId(`member-error-${leaver.email}`);
  await expect(memberError).toHaveText("No such member in your team");
  await expect(memberError).toBeFocused();
  await expect(leaverRole).toHaveValue("writer");
  await expect(page.getByTestId("team-error")).toHaveCount(0);
  await page.getByRole("region", { name: "Members" }).screenshot({ path: "e2e/screenshots/members-row-error.png" });
  page.once("dialog", (dialog) => dialog.accept());
  await page.getByTestId(`member-${leaver.email}`).getByRole("button", { name: "Remove" }).click();
  await expect(memberError).toHaveText("No such member in your team");
  await expect(memberError).toBeFocused();
  // The next change clears it (and the page now shows the leaver gone).
  await page.getByLabel(`Role of ${writer.email}`).selectOption("viewer");
  await expect(memberError).toHaveCount(0);
  await expect(page.getByLabel(`Role of ${writer.email}`)).toHaveValue("viewer");
  await expect(page.getByTestId(`member-${leaver.email}`)).toHaveCount(0);
  await page.close();
});
