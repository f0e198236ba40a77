// After log-in the browser goes to the page it came from (`/login?callbackUrl=…`), but only on
// our own origin: every spelling that a browser reads as another host, or as script, ends on
// /library (where log-in lands by default) here (issue 37, point 5). A real Chromium follows what the page tells it.
import { expect, test } from "@playwright/test";
import { account, PASSWORD, shot } from "./helpers";

// As typed in the address bar (the query is decoded once by the page).
const HOSTILE = [
  "%2F%09%2Fevil.example",
  "//evil.example",
  "%2F%2Fevil.example%2Fx",
  "/\\evil.example",
  "%2F%5Cevil.example",
  "/%5Cevil.example",
  "https://evil.example",
  "https%3A%2F%2Fevil.example%2F",
  "%09%2F%2Fevil.example",
  "%2F%0A%2Fevil.example",
  "%2F%0D%0A%2Fevil.example",
  "%2F.%2F%2Fevil.example",
  "%2Fx%2F..%2F%2Fevil.example",
  "%2F%5C%09evil.example",
  "%5C%5Cevil.example",
  "javascript:alert(document.domain)",
  "javascript%3Aalert(1)",
  "%20%2F%2Fevil.example",
];

// Three parts, each its own test, so that Playwright's workers share the 19 log-ins.
test.describe.configure({ mode: "parallel" });
const PARTS = 3;
const spellings = [...HOSTILE, "%2Fanalytics"];

for (let part = 0; part < PARTS; part++)
  test(`a hostile callbackUrl ends on our own origin after log-in; /analytics still works (part ${part + 1} of ${PARTS})`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(300_000);
    const own = new URL(baseURL!).origin;
    const person = await account(`callback-${part}`, "free");
    for (const callbackUrl of spellings.filter((_, i) => i % PARTS === part)) {
      const context = await browser.newContext();
      const left: string[] = [];
      // Any request for another host is recorded and never leaves the machine.
      await context.route(/.*/, (route) => {
        const url = route.request().url();
        if (new URL(url).origin === own) return route.continue();
        left.push(url);
        return route.abort();
      });
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`/login?callbackUrl=${callbackUrl}`);
      await page.getByLabel("Email").fill(person.email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Log in" }).click();
      const expected = callbackUrl === "%2Fanalytics" ? "/analytics" : "/library";
      // The first page after log-in may take a while on a loaded machine.
      await expect(page).toHaveURL(`${own}${expected}`, { timeout: 30_000 });
      await page.waitForLoadState("networkidle");
      expect(new URL(page.url()).origin, callbackUrl).toBe(own);
      expect(left, callbackUrl).toEqual([]);
      expect(dialogs, callbackUrl).toEqual([]);
      if (callbackUrl === HOSTILE[0]) await shot(page, "login-callback-hostile");
      await context.close();
    }
  });
