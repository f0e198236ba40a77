// Your own back-half on /library: the create form suggests one from the name, the person may
// change or clear it, and the code saved and the short URL shown end with it.
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { account, logIn, shot } from "./helpers";

test("the create form suggests a back-half from the name, and the code is saved with it", async ({ page, request }) => {
  const user = await account("back-halves", "pro", "Bea Half");
  const { key } = await generateKey(user.id, "personal");
  const api = async (path: string) => (await request.get(path, { headers: { "x-api-key": key } })).json();
  await logIn(page, user.email, "/library");
  // Codes are unique across the service: a name of this run's own.
  const tag = randomBytes(3).toString("hex");
  await page.getByLabel("Name", { exact: true }).fill(`Summer Menu 2026 ${tag}`);
  const backHalf = page.getByLabel("Back-half");
  await expect(backHalf).toHaveValue(`summer-menu-2026-${tag}`);
  await page.getByLabel("Destination URL", { exact: true }).fill("https://example.com/summer");
  await shot(page, "back-half-suggested");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("page-of")).toContainText("1 code");
  const [made] = (await api("/v1/dynqrcodes")).dynqrcodes;
  expect(made.code).toBe(`summer-menu-2026-${tag}`);
  const row = page.getByTestId(`item-${made.code}`);
  await expect(row).toContainText(`/q/summer-menu-2026-${tag}`);
  expect(made.short_url.endsWith(`/q/summer-menu-2026-${tag}`)).toBe(true);
  await shot(page, "back-half-saved");

  // Changed by hand: the name no longer moves it; the same code again is refused with the API's words.
  await page.getByLabel("Name", { exact: true }).fill("Winter menu");
  await expect(backHalf).toHaveValue("winter-menu");
  await backHalf.fill(made.code);
  await page.getByLabel("Name", { exact: true }).fill("Winter menu, again");
  await expect(backHalf).toHaveValue(made.code);
  await page.getByLabel("Destination URL", { exact: true }).fill("https://example.com/winter");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("library-error")).toContainText(`Code already in use: ${made.code}`);
  await shot(page, "back-half-taken");

  // Cleared: a generated code.
  await backHalf.fill("");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("page-of")).toContainText("2 codes");
  const codes = (await api("/v1/dynqrcodes")).dynqrcodes.map((d: { code: string }) => d.code);
  expect(codes).toContain(made.code);
  expect(codes.find((c: string) => c !== made.code)).toMatch(/^[0-9A-Za-z]{8}$/);
});
