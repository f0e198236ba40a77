// What the browser specs share: accounts made in the database, the log-in form, screenshots.
import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { createUser } from "../server/accounts/users";

export const PASSWORD = "e2e-password-1";

/** A full-page screenshot under e2e/screenshots/ (git-ignored), to be looked at. */
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });

export async function account(prefix: string, tier: "free" | "pro" | "business", name = "E2E Person") {
  const email = `${prefix}-${randomUUID()}@test.example`;
  const user = await createUser({ email, password: PASSWORD, name }, tier, { verified: true });
  return { ...user, email };
}

/**
 * Logs in and lands on `path`: the form's own request (next-auth's credentials callback) sent
 * from the page's context, whose cookies the browser shares, then `path` loaded. The form
 * itself is driven by the specs about it (accounts-core, profile, login-callback); loading and
 * hydrating /login before every other spec cost each a page.
 */
export async function logIn(page: Page, email: string, path: string) {
  const csrf = await page.request.get("/api/auth/csrf");
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  await page.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email, password: PASSWORD, json: "true" },
    maxRedirects: 0,
  });
  const cookies = await page.context().cookies();
  expect(
    cookies.some((c) => c.name.includes("session-token")),
    `a session for ${email}`,
  ).toBe(true);
  await page.goto(path);
  await expect(page).toHaveURL(new RegExp(path.replace(/[/?]/g, "\\$&")));
}

/** HTML_CodeSniffer's browser build (BSD-3-Clause; axe-core is MPL-2.0, outside our licence rule). */
const HTMLCS_SCRIPT = "node_modules/html_codesniffer/build/HTMLCS.js";

/**
 * The WCAG 2 AA errors HTML_CodeSniffer finds on the page as it is now, one line each: the
 * rule's code, the start of the element and the page. Its warnings and notices ask for a
 * person's judgement and are not counted.
 */
export async function accessibilityErrors(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "HTMLCS" in window))) await page.addScriptTag({ path: HTMLCS_SCRIPT });
  const errors = await page.evaluate(
    () =>
      new Promise<{ code: string; element: string; message: string }[]>((resolve, reject) => {
        type Message = { type: number; code: string; msg: string; element: Element | Document };
        const { HTMLCS: htmlcs, translation } = window as unknown as {
          HTMLCS: {
            process: (standard: string, content: Document, done: () => void, failed: () => void) => void;
            getMessages: () => Message[];
          };
          translation: { en: Record<string, string> };
        };
        // 2.5.1 ships no English text for its autocomplete-purpose errors and throws on one;
        // it also takes an <input> without a type attribute for a non-text field.
        for (const group of ["Text", "Multiline", "Password", "Url", "Telephone", "Numeric", "Month", "Date"]) {
          translation.en[`1_3_5_H98.InvalidAutoComplete_${group}`] ??=
            `autocomplete="{{x}}" does not suit this kind of field (${group}; give a text <input> type="text")`;
        }
        htmlcs.process(
          "WCAG2AA",
          document,
          () =>
            resolve(
              htmlcs
                .getMessages()
                .filter((m) => m.type === 1)
                .map((m) => ({
                  code: m.code,
                  message: m.msg,
                  element: "outerHTML" in m.element ? m.element.outerHTML.slice(0, 160) : "(document)",
                })),
            ),
          () => reject(new Error("HTML_CodeSniffer failed")),
        );
      }),
  );
  const where = new URL(page.url()).pathname;
  return errors.map((e) => `${where}: ${e.code}: ${e.element} (${e.message})`);
}

/** Full-page screenshots at desktop (1280) and phone (390) width: `<name>-1280.png`, `<name>-390.png`. */
export async function shotAtWidths(page: Page, name: string) {
  const before = page.viewportSize();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 844 });
    await shot(page, `${name}-${width}`);
  }
  if (before) await page.setViewportSize(before);
}

/** On /business: opens a section from the page's menu (one section is shown at a time). */
export async function openSection(page: Page, label: string) {
  await page
    .getByRole("navigation", { name: "Sections of the team page" })
    .getByRole("link", { name: label, exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`\\?section=${label.toLowerCase().replaceAll(" ", "-")}$`));
}
