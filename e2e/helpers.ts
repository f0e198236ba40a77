// What the browser specs share: accounts made in the database, the log-in form, screenshots.
import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { createUser } from "../server/domain/users";

export const PASSWORD = "e2e-password-1";

/** A full-page screenshot under e2e/screenshots/ (git-ignored), to be looked at. */
export const shot = (page: Page, name: string) => page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });

export async function account(prefix: string, tier: "free" | "pro" | "business", name = "E2E Person") {
  const email = `${prefix}-${randomUUID()}@test.example`;
  const user = await createUser({ email, password: PASSWORD, name }, tier, { verified: true });
  return { ...user, email };
}

/** Logs in through the form and lands on `path`. */
export async function logIn(page: Page, email: string, path: string) {
  await page.goto(`/login?callbackUrl=${encodeURIComponent(path)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(new RegExp(path.replace(/[/?]/g, "\\$&")));
}
