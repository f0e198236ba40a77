// Every page at desktop and phone width, with the browser console and the network watched:
// no console error, no failed script, no request leaving this server. Screenshots of each.
import { expect, test, type Page } from "@playwright/test";
import { createDynamicCodes } from "../server/library/dynamicCodes";
import { createStaticCodes } from "../server/library/staticCodes";
import { createTeam } from "../server/teams/teams";
import { account, logIn, shot } from "./helpers";

const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** Collects what must never happen on a page. */
function watch(page: Page, origin: string) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:"))
      problems.push(`request leaving the server: ${url}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 500) problems.push(`${response.status()} from ${response.url()}`);
  });
  return problems;
}

test("every page loads cleanly at desktop and phone width", async ({ browser, baseURL }) => {
  // Nine pages at two widths, each with a full-page screenshot: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  const origin = new URL(baseURL!).origin;
  const owner = await account("pages", "business", "Paige Owner");
  await createTeam(owner.id, "Pages Team");
  const personal = { userId: owner.id, library: { kind: "personal" as const, userId: owner.id } };
  const [code] = await createDynamicCodes(personal, [
    { name: "Shop window", destination_url: "https://example.com/shop" },
  ]);
  await createStaticCodes(personal, [{ name: "Wi-Fi", url: "https://example.com/wifi" }]);

  for (const [width, viewport] of Object.entries(WIDTHS)) {
    const anonymous = await browser.newPage({ viewport });
    const seenAnonymous = watch(anonymous, origin);
    for (const [name, path] of [
      ["home", "/"],
      ["login", "/login"],
      ["signup", "/signup"],
    ]) {
      await anonymous.goto(path);
      await expect(anonymous.locator("main h1").first()).toBeVisible();
      await shot(anonymous, `page-${name}-${width}`);
    }
    await anonymous.close();
    expect(seenAnonymous).toEqual([]);

    const page = await browser.newPage({ viewport });
    const seen = watch(page, origin);
    await logIn(page, owner.email, "/library");
    const pages: [string, string, () => Promise<void>][] = [
      ["library", "/library", () => expect(page.getByTestId(`item-${code.code}`)).toBeVisible()],
      ["business", "/business", () => expect(page.getByRole("heading", { name: "Pages Team" })).toBeVisible()],
      ["analytics", "/analytics", () => expect(page.getByRole("link", { name: "Shop window" })).toBeVisible()],
      ["analytics-code", `/analytics/${code.code}`, () => expect(page.getByTestId("daily-chart")).toBeVisible()],
      ["profile", "/profile", () => expect(page.getByRole("button", { name: "Generate API key" })).toBeVisible()],
      // Swagger UI's bundle (1.4 MB) takes a while to parse on a busy machine.
      ["docs", "/docs", () => expect(page.locator(".opblock").first()).toBeVisible({ timeout: 30_000 })],
    ];
    for (const [name, path, ready] of pages) {
      await page.goto(path);
      await ready();
      // Nothing wider than the screen: the page never scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await shot(page, `page-${name}-${width}`);
    }
    await page.close();
    expect(seen).toEqual([]);
  }
});
