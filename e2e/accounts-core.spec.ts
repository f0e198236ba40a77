// The account around the records (contract: "Accounts for real"), in the browser at desktop
// and phone width, mails read from the tests' SMTP server: sign up → verification mail →
// verify → generate a key; password, email and sessions on /profile; forgot password → mail →
// reset → the old session's next page load goes to /login. Screenshots of every new page.
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { setTier } from "../server/accounts/users";
import { linkIn, waitForMail } from "../tests/mail-sink";
import { account, logIn, PASSWORD, shot } from "./helpers";

const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** The link of the latest mail to `email` whose subject matches, as a path on this server. */
async function mailedLink(email: string, subject: RegExp, pathname: string, nth = 1): Promise<string> {
  const url = linkIn(await waitForMail(email, subject, { nth }), pathname);
  return `${url.pathname}${url.search}`;
}

const noSideScroll = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

for (const [name, viewport] of Object.entries(WIDTHS)) {
  test(`sign up, verify from the mail, generate a key; change password and email; log out everywhere (${name})`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const page = await browser.newPage({ viewport });
    const email = `core-${randomUUID()}@test.example`;
    const password = "core-password-1";

    await page.goto("/signup");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByLabel("Name").fill("Core Person");
    await page.getByRole("button", { name: "Create account" }).click();
    // Sign-up lands on the library (issue 39); the key is on the profile.
    await expect(page).toHaveURL(/\/library$/);
    await setTier(email, "pro");
    await page.goto("/profile");

    // Not verified yet: refused, and the page's one Resend sends the mail again.
    await page.getByRole("button", { name: "Generate API key" }).click();
    await expect(page.getByTestId("key-error")).toHaveText("Verify your email address first");
    // One Resend on the page: the notice every page of an unverified account shows; the key panel points to it.
    await expect(page.getByRole("button", { name: "Resend verification email" })).toHaveCount(1);
    await expect(
      page.getByTestId("verify-first-hint").getByRole("link", { name: "the notice at the top of the page" }),
    ).toHaveAttribute("href", "#verify-notice");
    await page.getByTestId("verify-notice").getByRole("button", { name: "Resend verification email" }).click();
    await expect(page.getByText("Sent: open the link in the mail")).toBeVisible();
    await shot(page, `accounts-unverified-${viewport.width}`);

    // The second mail's link (the resent one) verifies.
    await page.goto(await mailedLink(email, /Verify your email address/, "/verify-email", 2));
    await expect(page.getByTestId("link-done")).toHaveText(`Your email address ${email} is verified.`);
    await noSideScroll(page, viewport.width);
    await shot(page, `accounts-verify-email-${viewport.width}`);
    await page.getByRole("link", { name: "Go to your profile" }).click();
    await page.getByRole("button", { name: "Generate API key" }).click();
    await expect(page.getByTestId("new-api-key")).toHaveText(/^qrp_[0-9A-Za-z]{40}$/);

    // Change password: a wrong current password is refused at its form; then this browser stays logged in.
    await page.getByLabel("Current password").fill("not-the-password");
    await page.getByLabel("New password").fill("core-password-2");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByTestId("password-panel").getByRole("alert")).toHaveText("Current password is wrong");
    await page.getByLabel("Current password").fill(password);
    await page.getByLabel("New password").fill("core-password-2");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Password changed.")).toBeVisible();
    await page.reload();
    await expect(page).toHaveURL(/\/profile/);

    // Change email: confirmed from the new address.
    const next = `core-new-${randomUUID()}@test.example`;
    await page.getByLabel("New email").fill(next);
    // The password again: a wrong one is refused at the form.
    const emailPanel = page.getByTestId("email-panel");
    await emailPanel.getByLabel("Current password").fill("not-the-password");
    await page.getByRole("button", { name: "Change email" }).click();
    await expect(emailPanel.getByRole("alert")).toHaveText("Current password is wrong");
    await emailPanel.getByLabel("Current password").fill("core-password-2");
    await page.getByRole("button", { name: "Change email" }).click();
    await expect(page.getByText(`We sent a link to ${next}`)).toBeVisible();
    await noSideScroll(page, viewport.width);
    await shot(page, `accounts-profile-${viewport.width}`);
    await page.goto(await mailedLink(next, /Confirm your new email address/, "/confirm-email"));
    await expect(page.getByTestId("link-done")).toHaveText(`Your account now uses ${next}.`);
    await shot(page, `accounts-confirm-email-${viewport.width}`);
    await page.goto("/profile");
    await expect(page.locator("dl.facts").getByText(next)).toBeVisible();

    // Log out everywhere: this browser too.
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "Log out everywhere" }).click();
    await expect(page).toHaveURL(/\/login/);
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login/);
    await page.close();
  });

  test(`forgot password → mail → reset → the old session's next page load goes to /login (${name})`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const user = await account("core-reset", "pro");
    const before = await browser.newPage({ viewport });
    await logIn(before, user.email, "/profile");

    const page = await browser.newPage({ viewport });
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(/\/forgot-password/);
    await page.getByLabel("Email").fill(user.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByTestId("reset-sent")).toHaveText(
      `If an account uses ${user.email}, a reset link is on its way. Check your inbox.`,
    );
    await noSideScroll(page, viewport.width);
    await shot(page, `accounts-forgot-password-${viewport.width}`);

    const link = await mailedLink(user.email, /Reset your password/, "/reset-password");
    await page.goto(link);
    await page.getByLabel("New password").fill("short");
    await page.getByRole("button", { name: "Set new password" }).click();
    // The browser's own check (minlength) stops it first; the page shows nothing changed.
    await expect(page.getByTestId("reset-done")).toHaveCount(0);
    await page.getByLabel("New password").fill("a-brand-new-password-1");
    await shot(page, `accounts-reset-password-${viewport.width}`);
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByTestId("reset-done")).toBeVisible();
    await shot(page, `accounts-reset-password-done-${viewport.width}`);

    // The link works once: opened again, the page says so before a password is typed (issue 39, point 5).
    await page.goto(link);
    await expect(page.getByTestId("reset-link-dead")).toHaveText(/This link has expired or was already used/);
    await expect(page.getByLabel("New password")).toHaveCount(0);
    await shot(page, `accounts-reset-password-used-${viewport.width}`);

    // The session from before the reset: its next page load goes to /login.
    await before.reload();
    await expect(before).toHaveURL(/\/login/);
    // The new password logs in; the old one does not.
    await before.getByLabel("Email").fill(user.email);
    await before.getByLabel("Password").fill(PASSWORD);
    await before.getByRole("button", { name: "Log in" }).click();
    await expect(before.getByTestId("form-error")).toHaveText("Wrong email or password");
    await before.getByLabel("Password").fill("a-brand-new-password-1");
    await before.getByRole("button", { name: "Log in" }).click();
    await expect(before).toHaveURL(/\/profile/);
    await before.close();
    await page.close();
  });
}
