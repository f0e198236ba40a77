// The activity sections: the team's on /business (admins) and the account's own on /profile,
// newest first, each with its CSV download.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { revokeKey } from "../server/keys/apiKeys";
import { addMember, createTeam, generateBusinessKey, setMemberRole } from "../server/teams/teams";
import { account, logIn, shotAtWidths } from "./helpers";

const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** The section's CSV, as the browser downloads it: its lines. */
async function download(page: Page, section: ReturnType<Page["getByTestId"]>) {
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    section.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  return {
    name: file.suggestedFilename(),
    lines: (await readFile((await file.path())!, "utf8")).trimEnd().split("\r\n"),
  };
}

test("the team's activity on /business and the account's on /profile, with their CSV downloads", async ({ page }) => {
  const admin = await account("e2e-activity-admin", "business");
  await createTeam(admin.id, "Activity Team");
  await generateBusinessKey(admin.id);
  const writer = await account("e2e-activity-writer", "free");
  await addMember(admin.id, writer.email, "writer");
  const { summary } = await generateBusinessKey(writer.id);
  await revokeKey(summary.id, admin.id);
  await setMemberRole(admin.id, writer.id, "viewer");

  await page.setViewportSize(WIDTHS.desktop);
  await logIn(page, admin.email, "/business?section=activity");
  const teamLog = page.getByTestId("activity-team");
  await expect(teamLog.getByRole("heading", { name: "Activity" })).toBeVisible();
  const rows = teamLog.getByTestId("activity-entry");
  await expect(rows).toHaveCount(5);
  // Newest first.
  await expect(rows.nth(0)).toContainText("member.role_changed");
  await expect(rows.nth(0)).toContainText(writer.email);
  await expect(rows.nth(0)).toContainText("from: writer; to: viewer");
  await expect(rows.nth(1)).toContainText("key.revoked");
  await expect(rows.nth(1)).toContainText(summary.display);
  await expect(rows.nth(3)).toContainText("key.generated");
  await expect(rows.nth(4)).toContainText("team.created");
  await teamLog.scrollIntoViewIfNeeded();
  await shotAtWidths(page, "business-activity");
  const teamCsv = await download(page, teamLog);
  expect(teamCsv.name).toMatch(/^activity-team-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(teamCsv.lines[0]).toBe("time,actor,action,target,details");
  expect(teamCsv.lines).toHaveLength(6);
  expect(teamCsv.lines[1]).toContain(`,${admin.email},member.role_changed,${writer.email},from: writer; to: viewer`);
  expect(teamCsv.lines[2]).toContain(`,key.revoked,${summary.display},scope: business`);

  await page.goto("/profile");
  const ownLog = page.getByTestId("activity-account");
  // The log-in just made, with the browser and system this Chromium reports, and no address.
  await expect(ownLog.getByTestId("activity-entry").first()).toContainText("login");
  await expect(ownLog.getByTestId("activity-entry").first()).toContainText(/browser: [^;]+; os: Linux; country: \w\w/);
  await ownLog.scrollIntoViewIfNeeded();
  await shotAtWidths(page, "profile-activity");
  const ownCsv = await download(page, ownLog);
  expect(ownCsv.name).toMatch(/^activity-account-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(ownCsv.lines[0]).toBe("time,actor,action,target,details");
  expect(ownCsv.lines[1]).toMatch(
    new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[\\d:]{8}Z,${admin.email.replace(/[.]/g, "\\.")},login,,browser: `),
  );
  expect(ownCsv.lines.join("\n")).not.toMatch(/127\.0\.0\.1|::1/);
});
