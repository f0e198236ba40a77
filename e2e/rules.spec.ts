// A dynamic code's rules in the library's editor: build targets (add, remove, reorder, the
// analytics' OS and device values, a country), UTM tags, save; scans with matching agents go
// where the rules say, and /analytics/<code> shows them under "Destinations".
import { expect, test } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { createDynamicCodes } from "../server/library/dynamicCodes";
import { UA } from "../tests/agents";
import { accessibilityErrors, account, logIn, shot } from "./helpers";

test("rules built in the editor decide where scans go, and the destinations show in analytics", async ({
  page,
  request,
}) => {
  const user = await account("rules", "pro", "Rule Maker");
  const { key } = await generateKey(user.id, "personal");
  const [code] = await createDynamicCodes({ userId: user.id, library: { kind: "personal", userId: user.id } }, [
    { name: "App poster", destination_url: "https://example.com/app" },
  ]);
  await logIn(page, user.email, "/library");
  const row = page.getByTestId(`item-${code.code}`);
  await row.getByRole("button", { name: "Rules" }).click();
  await expect(row.getByTestId(`rules-${code.code}-no-targets`)).toBeVisible();

  // Three rules; the third removed; the Android rule moved to the top.
  for (let i = 0; i < 3; i++) await row.getByRole("button", { name: "Add rule" }).click();
  await row.getByLabel("Rule 1 URL").fill("https://apps.apple.com/app/id1");
  await row.getByLabel("Rule 1 operating system").selectOption("iOS");
  await row.getByLabel("Rule 2 URL").fill("https://play.google.com/store/apps/details?id=x");
  await row.getByLabel("Rule 2 operating system").selectOption("Android");
  await row.getByLabel("Rule 2 device").selectOption("mobile");
  await row.getByLabel("Rule 3 URL").fill("https://example.de/app");
  await row.getByLabel("Rule 3 country").selectOption("DE");
  await row.getByRole("button", { name: "Remove rule 3" }).click();
  await row.getByRole("button", { name: "Move rule 2 up" }).click();
  await row.getByLabel("utm_source").fill("poster");
  await row.getByLabel("utm_campaign").fill("launch");
  await shot(page, "library-rules");
  expect(await accessibilityErrors(page)).toEqual([]);
  // A rule with no condition is refused with the API's words, and nothing is saved.
  await row.getByRole("button", { name: "Add rule" }).click();
  await row.getByLabel("Rule 3 URL").fill("https://example.com/nothing");
  await row.getByRole("button", { name: "Save rules" }).click();
  await expect(row.getByTestId(`rules-error-${code.code}`)).toContainText(
    "targets[2] needs at least one of os, device, country",
  );
  await row.getByRole("button", { name: "Remove rule 3" }).click();
  await row.getByRole("button", { name: "Save rules" }).click();
  await expect(row.getByRole("button", { name: "Save rules" })).toHaveCount(0);

  const saved = (await (await request.get("/v1/dynqrcodes", { headers: { "x-api-key": key } })).json()).dynqrcodes[0];
  expect(saved.targets).toEqual([
    { url: "https://play.google.com/store/apps/details?id=x", os: "Android", device: "mobile" },
    { url: "https://apps.apple.com/app/id1", os: "iOS" },
  ]);
  expect(saved.utm).toEqual({ source: "poster", campaign: "launch" });

  // Scans through /q with matching agents.
  const scan = async (userAgent: string) =>
    (await request.get(`/q/${code.code}`, { maxRedirects: 0, headers: { "user-agent": userAgent } })).headers()[
      "location"
    ];
  expect(await scan(UA.android)).toBe(
    "https://play.google.com/store/apps/details?id=x&utm_source=poster&utm_campaign=launch",
  );
  expect(await scan(UA.iphone)).toBe("https://apps.apple.com/app/id1?utm_source=poster&utm_campaign=launch");
  expect(await scan(UA.iphone)).toBe("https://apps.apple.com/app/id1?utm_source=poster&utm_campaign=launch");
  expect(await scan(UA.edge)).toBe("https://example.com/app?utm_source=poster&utm_campaign=launch");

  // The editor shows what was saved when opened again.
  await page.reload();
  await row.getByRole("button", { name: "Rules" }).click();
  await expect(row.getByLabel("Rule 1 operating system")).toHaveValue("Android");
  await expect(row.getByLabel("Rule 2 URL")).toHaveValue("https://apps.apple.com/app/id1");
  await expect(row.getByLabel("utm_source")).toHaveValue("poster");

  // The destinations breakdown (scans are written a moment after their redirects).
  const destinations = page.locator("section.card", { has: page.getByRole("heading", { name: "Destinations" }) });
  await expect(async () => {
    await page.goto(`/analytics/${code.code}`);
    await expect(destinations).toContainText("https://apps.apple.com/app/id1?utm_source=poster&utm_campaign=launch");
  }).toPass({ timeout: 10_000 });
  const rows = destinations.locator("tr");
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText("2 scans");
  await expect(destinations).toContainText(
    "https://play.google.com/store/apps/details?id=x&utm_source=poster&utm_campaign=launch",
  );
  await expect(destinations).toContainText("https://example.com/app?utm_source=poster&utm_campaign=launch");
  await shot(page, "analytics-destinations");
});

test("a protected code's password form at phone width, without JavaScript", async ({ browser }) => {
  const user = await account("rules-pw", "pro", "Staff Room");
  const [code] = await createDynamicCodes({ userId: user.id, library: { kind: "personal", userId: user.id } }, [
    { name: "Staff room", destination_url: "https://example.com/staff", password: "staff-4471" },
  ]);
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
  await page.goto(`/q/${code.code}`);
  await expect(page.getByRole("heading", { name: "This QR code is protected" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "q-password-phone");
  await page.getByLabel("Password").fill("not-the-one");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert")).toHaveText("Wrong password");
  await shot(page, "q-password-wrong-phone");
  await page.close();
  // The checker needs a script: the same page with JavaScript on, and the page's CSP (no script at all) set aside for it.
  const checked = await browser.newPage({ viewport: { width: 390, height: 844 }, bypassCSP: true });
  await checked.goto(`/q/${code.code}`);
  expect(await accessibilityErrors(checked)).toEqual([]);
  await checked.close();
});
