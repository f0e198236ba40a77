// Email change on /profile asks the password again, and the old address's mail undoes it
// (issue 37, point 8): the account comes back, this browser's session ends, and the owner
// sets a new password from the restored address.
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { linkIn, waitForMail } from "../tests/mail-sink";
import { account, logIn, PASSWORD, shot } from "./helpers";

const pathOf = (url: URL) => `${url.pathname}${url.search}`;

test("change the email with the password, then undo it from the old address", async ({ page }) => {
  const person = await account("undo", "free");
  await logIn(page, person.email, "/profile");
  const panel = page.getByTestId("email-panel");
  await expect(page.getByLabel("Current password")).toHaveCount(1);
  const next = `undo-new-${randomUUID()}@test.example`;
  await page.getByLabel("New email").fill(next);
  await panel.getByLabel("Current password").fill(PASSWORD);
  await shot(page, "email-change-password");
  await page.getByRole("button", { name: "Change email" }).click();
  await expect(page.getByText(`We sent a link to ${next}`)).toBeVisible();

  await page.goto(pathOf(linkIn(await waitForMail(next, /Confirm your new email address/), "/confirm-email")));
  await expect(page.getByTestId("link-done")).toHaveText(`Your account now uses ${next}.`);

  const notice = await waitForMail(person.email, /Your email address was changed/);
  await page.goto(pathOf(linkIn(notice, "/undo-email-change")));
  await expect(page.getByTestId("link-done")).toContainText(`Your account uses ${person.email} again`);
  await shot(page, "email-change-undone");
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/login/);

  await page.goto(pathOf(linkIn(await waitForMail(person.email, /Reset your password/), "/reset-password")));
  await page.getByLabel("New password").fill("undo-password-2");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByTestId("reset-done")).toBeVisible();
  await page.goto("/login");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill("undo-password-2");
  await page.getByRole("button", { name: "Log in" }).click();
  // Log-in lands on the library (issue 39, point 4); the profile shows the address.
  await expect(page).toHaveURL(/\/library$/, { timeout: 30_000 });
  await page.goto("/profile");
  await expect(page.locator("dl.facts").getByText(person.email)).toBeVisible({ timeout: 30_000 });
});
