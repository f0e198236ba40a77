// Two-factor authentication in the browser: enable it on /profile (the code computed here from
// the secret the page shows as text), log out, log in with a code of the app, then with a
// recovery code, which then stops working.
import { expect, test, type Page } from "@playwright/test";
import { generate } from "otplib";
import { account, logIn, PASSWORD, shotAtWidths } from "./helpers";

const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

async function logInWithCode(page: Page, email: string, code: string) {
  // After Log out: the log-in page, not /profile's password fields.
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByLabel("Authentication code")).toBeFocused();
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Log in" }).click();
}

test("enable two-factor, then log in with a code and with a recovery code, which then stops working", async ({
  page,
}) => {
  const user = await account("e2e-2fa", "pro");
  await page.setViewportSize(WIDTHS.desktop);
  await logIn(page, user.email, "/profile");

  const panel = page.getByTestId("two-factor");
  await panel.getByRole("button", { name: "Enable two-factor authentication" }).click();
  await expect(panel.getByRole("img", { name: "QR code of the two-factor secret" }).locator("svg")).toBeVisible();
  const secret = (await panel.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
  await shotAtWidths(page, "two-factor-setup");

  await panel.getByLabel("Authentication code").fill("000000" === (await generate({ secret })) ? "111111" : "000000");
  await panel.getByRole("button", { name: "Turn on" }).click();
  await expect(panel.getByRole("alert")).toContainText("Authentication code is not valid");
  await panel.getByLabel("Authentication code").fill(await generate({ secret }));
  await panel.getByRole("button", { name: "Turn on" }).click();
  const codes = panel.getByTestId("recovery-codes").locator("li");
  await expect(codes).toHaveCount(10);
  const recoveryCodes = (await codes.allTextContents()).map((c) => c.trim());
  await expect(panel.getByTestId("two-factor-state")).toHaveText("On. 10 of 10 recovery codes left.");
  await shotAtWidths(page, "two-factor-recovery-codes");
  // Shown once: gone after a reload.
  await page.reload();
  await expect(panel.getByTestId("two-factor-state")).toBeVisible();
  await expect(panel.getByTestId("recovery-codes")).toHaveCount(0);

  await page.getByRole("button", { name: "Log out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByLabel("Authentication code")).toBeVisible();
  await shotAtWidths(page, "login-authentication-code");
  await page.getByLabel("Authentication code").fill(await generate({ secret }));
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/library$/);

  await page.getByRole("button", { name: "Log out", exact: true }).click();
  await logInWithCode(page, user.email, recoveryCodes[0]);
  await expect(page).toHaveURL(/\/library$/);
  await page.goto("/profile");
  await expect(page.getByTestId("two-factor-state")).toHaveText("On. 9 of 10 recovery codes left.");

  await page.getByRole("button", { name: "Log out", exact: true }).click();
  await logInWithCode(page, user.email, recoveryCodes[0]);
  await expect(page.getByTestId("form-error")).toHaveText("Wrong authentication code");
  await expect(page).toHaveURL(/\/login/);
  await shotAtWidths(page, "login-recovery-code-used");
});
