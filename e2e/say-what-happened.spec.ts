// Issue 39 in Chromium: the pages say what happened (the verification mail, a dead reset link,
// a deleted account, a draft another tab decided) and the small things people expect (https://
// completed in URL fields, recovery codes to copy and download, a show-password toggle, the
// review queue's QR codes and short links, a rejection's reason the writer sees).
import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { generate } from "otplib";
import { db } from "../server/platform/db";
import { createDynamicCodes } from "../server/library/dynamicCodes";
import { addMember, createTeam } from "../server/teams/teams";
import { reviewDrafts } from "../server/teams/draftReview";
import { waitForMail } from "../tests/mail-sink";
import { account, logIn, PASSWORD, shot } from "./helpers";

test("sign-up says where the verification mail went; the profile says the address is unverified, with Resend", async ({
  page,
}) => {
  const email = `signup-${randomUUID()}@test.example`;
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Name").fill("New Person");
  await page.getByRole("button", { name: "Create account" }).click();
  const notice = page.getByTestId("verify-notice");
  await expect(notice).toContainText(`We sent a link to ${email} to verify it`);
  await page.goto("/profile");
  await expect(page.getByTestId("email-status")).toHaveText("not verified");
  await expect(notice.getByRole("button", { name: "Resend verification email" })).toBeVisible();
  await shot(page, "say-unverified-profile");
  await notice.getByRole("button", { name: "Resend verification email" }).click();
  await expect(notice.getByRole("status")).toContainText("Sent");
  await waitForMail(email, /verify/i, { nth: 2 });
});

test("a used reset link says so when it opens; a live one has a show-password toggle", async ({ page }) => {
  const user = await account("reset", "free");
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: /send/i }).click();
  const mail = await waitForMail(user.email, /Reset your password/);
  const link = new URL((mail.text ?? "").match(/https?:\/\/\S+\/reset-password\S+/)![0]);
  await page.goto(`${link.pathname}${link.search}`);
  const field = page.getByLabel("New password");
  await field.fill("another-password-1");
  await expect(field).toHaveAttribute("type", "password");
  await page.getByLabel("Show password").check();
  await expect(field).toHaveAttribute("type", "text");
  await shot(page, "say-reset-form");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByTestId("reset-done")).toBeVisible();
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByTestId("reset-link-dead")).toHaveText(/This link has expired or was already used/);
  await expect(page.getByLabel("New password")).toHaveCount(0);
  await shot(page, "say-reset-used");
  await page.getByRole("link", { name: "Ask for a new link" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test("deleting the account ends on a page that says it was deleted", async ({ page }) => {
  const user = await account("gone", "free");
  await logIn(page, user.email, "/profile");
  await page.getByRole("button", { name: "Delete account" }).click();
  await page.getByLabel(/Type your email/).fill(user.email);
  await page.getByLabel("Your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Delete account" }).last().click();
  await expect(page).toHaveURL(/\/account-deleted$/);
  await expect(page.getByTestId("account-deleted")).toContainText("Your account was deleted");
  await shot(page, "say-account-deleted");
});

test("URL fields complete https:// before saving; recovery codes can be copied and downloaded", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const user = await account("urls", "pro");
  await logIn(page, user.email, "/library");
  const url = page.getByLabel("Destination URL", { exact: true });
  await page.getByLabel("Name").first().fill("Menu");
  await url.fill("example.com/menu");
  await url.blur();
  await expect(url).toHaveValue("https://example.com/menu");
  await url.fill("mailto:menu@example.com");
  await url.blur();
  await expect(url).toHaveValue("mailto:menu@example.com");
  // Enter saves at once: the completed address is what is saved.
  await url.fill("example.com/menu?day=1");
  await url.press("Enter");
  await expect
    .poll(() => db.dynamicCode.findFirst({ where: { userId: user.id } }).then((r) => r?.destinationUrl))
    .toBe("https://example.com/menu?day=1");
  await shot(page, "say-url-completed");

  await page.goto("/profile");
  // Another form's URL field (the webhook endpoint) completes the same way.
  const endpoint = page.getByLabel("Endpoint URL").first();
  await endpoint.fill("hooks.example.com/qr");
  await endpoint.blur();
  await expect(endpoint).toHaveValue("https://hooks.example.com/qr");
  await page.getByRole("button", { name: "Enable two-factor authentication" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  await page.getByLabel("Authentication code").fill(await generate({ secret }));
  await page.getByRole("button", { name: "Turn on" }).click();
  const codes = page.getByTestId("recovery-codes");
  await expect(codes.locator("li")).toHaveCount(10);
  const listed = await codes.locator("li").allTextContents();
  await codes.getByRole("button", { name: "Copy codes" }).click();
  await expect(codes.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(listed.join("\n"));
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    codes.getByRole("link", { name: "Download codes" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("qr-records-recovery-codes.txt");
  const text = readFileSync((await download.path())!, "utf8");
  for (const code of listed) expect(text).toContain(code);
  await codes.screenshot({ path: "e2e/screenshots/say-recovery-codes.png" });
});

test("the review queue shows QR codes and short links; a second tab's Approve says who decided; a rejection's reason reaches the writer", async ({
  browser,
}) => {
  const admin = await account("say-admin", "business", "Ada Admin");
  const team = await createTeam(admin.id, "Say Team");
  const writer = await account("say-writer", "free", "Wes Writer");
  await addMember(admin.id, writer.email, "writer");
  const asWriter = { userId: writer.id, library: { kind: "team" as const, teamId: team.id }, role: "writer" as const };
  const [menu, poster] = await createDynamicCodes(
    asWriter,
    ["Menu", "Poster"].map((name) => ({ name, destination_url: `https://example.com/${name.toLowerCase()}` })),
  );

  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await logIn(page, admin.email, "/business?section=review");
  const row = page.getByTestId(`draft-${menu.code}`);
  const thumb = row.getByRole("img", { name: "QR code of Menu" });
  await expect(thumb).toBeVisible();
  // Visible as soon as it is laid out: its pixels may still be on their way (the server draws them).
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByTestId(`draft-short-url-${menu.code}`)).toContainText(`/q/${menu.code}`);
  await page.getByRole("region", { name: "Review queue" }).screenshot({ path: "e2e/screenshots/say-review-queue.png" });

  // Another tab approved it meanwhile.
  await reviewDrafts(admin.id, "approve", [{ kind: "dynamic", id: menu.code }]);
  await row.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId(`draft-error-${menu.code}`)).toHaveText(
    new RegExp(`^This draft was already approved by ${admin.email.replace(/[.+]/g, "\\$&")} at `),
  );

  const posterRow = page.getByTestId(`draft-${poster.code}`);
  await posterRow.getByRole("button", { name: "Reject" }).click();
  await posterRow.getByLabel("Reason for rejecting “Poster”").fill("The poster's link points to the old menu");
  await posterRow.getByRole("button", { name: "Reject and delete" }).click();
  await expect(posterRow).toHaveCount(0);
  await page.close();

  const mail = await waitForMail(writer.email, /Your draft “Poster” was rejected/);
  expect(mail.text).toContain("Reason: The poster's link points to the old menu");
  const writerPage = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await logIn(writerPage, writer.email, "/business?section=review");
  const seen = writerPage.getByTestId(`rejected-${poster.code}`);
  await expect(seen).toContainText("The poster's link points to the old menu");
  await expect(seen).toContainText(admin.email);
  await seen.screenshot({ path: "e2e/screenshots/say-rejected-draft-390.png" });
  await writerPage.close();
});
