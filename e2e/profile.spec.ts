// Sign up, log in, generate a personal key on /profile, use it, revoke it.
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { setTier } from "../server/accounts/users";
import { linkIn, waitForMail } from "../tests/mail-sink";
import { shot } from "./helpers";

test("a Pro account generates a key, uses it, and revokes it", async ({ page, request }) => {
  const email = `e2e-${randomUUID()}@test.example`;
  const password = "e2e-password-1";

  await page.goto("/profile");
  await expect(page).toHaveURL(/\/login/);

  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Name").fill("E2E Person");
  await shot(page, "signup");
  await page.getByRole("button", { name: "Create account" }).click();
  // Sign-up and log-in land on the library (issue 39).
  await expect(page).toHaveURL(/\/library$/);
  await page.goto("/profile");
  await expect(page.getByTestId("no-api-access")).toBeVisible();
  await shot(page, "profile-free");

  // An operator upgrades the account (billing is out of scope).
  await setTier(email, "pro");

  await page.getByRole("button", { name: "Log out", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password");
  await shot(page, "login-error");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/library$/);

  // Keys need a verified address (e2e/accounts-core.spec.ts follows this step closely).
  await page.goto(linkIn(await waitForMail(email, /Verify your email address/), "/verify-email").toString());
  await expect(page.getByTestId("link-done")).toBeVisible();
  await page.goto("/profile");
  await page.getByRole("button", { name: "Generate API key" }).click();
  const shown = page.getByTestId("new-api-key");
  await expect(shown).toHaveText(/^qrp_[0-9A-Za-z]{40}$/);
  const key = (await shown.textContent())!.trim();
  await expect(page.getByTestId("api-key-display")).toHaveText(`${key.slice(0, 8)}…${key.slice(-4)}`);
  await shot(page, "profile-key");

  const ok = await request.get("/v1/qrcodes", { headers: { "x-api-key": key } });
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toEqual({ qrcodes: [], next_cursor: null });

  // The full key is shown once: after a reload only prefix…last four remain.
  await page.reload();
  await expect(page.getByTestId("api-key-display")).toBeVisible();
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
  expect(await page.content()).not.toContain(key);

  // While a key is live the page shows it and Revoke, and offers no second key.
  await expect(page.getByRole("button", { name: "Revoke API key" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Generate API key" })).toHaveCount(0);
  await expect(page.getByTestId("one-key-note")).toBeVisible();

  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Revoke API key" }).click();
  await expect(page.getByTestId("api-key-display")).toHaveCount(0);
  await shot(page, "profile-revoked");

  const refused = await request.get("/v1/qrcodes", { headers: { "x-api-key": key } });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({ error: "API key has been revoked" });
});

test("before the page's script runs, the account forms cannot be sent, and never put a password in a URL", async ({
  browser,
}) => {
  // A click in the moment between the HTML and the script would submit natively: the click is
  // lost, and a GET would carry the password in the address (history, logs).
  const page = await browser.newPage({ javaScriptEnabled: false });
  for (const [path, button] of [
    ["/login", "Log in"],
    ["/signup", "Create account"],
    ["/forgot-password", "Send reset link"],
  ]) {
    await page.goto(path);
    await expect(page.getByRole("button", { name: button })).toBeDisabled();
    await expect(page.locator("form")).toHaveAttribute("method", "post");
  }
  await page.close();
});
