// Hosted pages at phone width (issue 44; docs/TYPES.md "Hosted pages"): a `page` code's links and a
// `vcard` code's contact card read with JavaScript off, fit 390 px without sideways scrolling,
// Save contact downloads the .vcf, and HTML_CodeSniffer finds no WCAG 2 AA error on either. The
// library's create and edit forms make and change a link page.
import { expect, test, type Browser } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { createDynamicCodes } from "../server/library/dynamicCodes";
import { accessibilityErrors, account, logIn, shot, shotAtWidths } from "./helpers";

const PHONE = { width: 390, height: 844 };

/** The checker needs a script: the same page with JavaScript on, and the page's CSP (no script at all) set aside for it. */
async function errorsOf(browser: Browser, path: string) {
  const checked = await browser.newPage({ viewport: PHONE, bypassCSP: true });
  await checked.goto(path);
  const errors = await accessibilityErrors(checked);
  await checked.close();
  return errors;
}

test("a link page and a contact card on a phone: readable without script, no sideways scrolling, no accessibility error", async ({
  browser,
}) => {
  const owner = await account("hosted", "pro", "Hana Hosted");
  const actor = { userId: owner.id, library: { kind: "personal" as const, userId: owner.id } };
  const [links, card] = await createDynamicCodes(actor, [
    {
      name: "Café links",
      type: "page",
      content: {
        title: "Café Linden — Kreuzberg",
        links: [
          { label: "Today's menu", url: "https://example.com/menu" },
          { label: "Book a table", url: "https://example.com/book" },
          {
            label: "Opening hours and a very long label that has to wrap on a phone",
            url: "https://example.com/hours",
          },
        ],
      },
    },
    {
      name: "Zoë's card",
      type: "vcard",
      content: {
        first_name: "Zoë",
        last_name: "Müller",
        title: "Head chef",
        organization: "Café Linden",
        phones: ["+49 30 1234567"],
        emails: ["zoe@example.com"],
        url: "https://example.com/zoe",
        address: "Hauptstr. 1\n10115 Berlin",
        note: "Ask for the lunch menu.",
      },
    },
  ]);

  const page = await browser.newPage({ viewport: PHONE, javaScriptEnabled: false });
  await page.goto(`/q/${links.code}`);
  await expect(page.getByRole("heading", { name: "Café Linden — Kreuzberg" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Book a table" })).toHaveAttribute("href", "https://example.com/book");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await shot(page, "hosted-page-390");

  await page.goto(`/q/${card.code}`);
  await expect(page.getByRole("heading", { name: "Zoë Müller" })).toBeVisible();
  await expect(page.getByRole("link", { name: "+49 30 1234567" })).toHaveAttribute("href", "tel:+49301234567");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await shot(page, "hosted-vcard-390");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Save contact" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${card.code}.vcf`);
  await page.close();

  expect(await errorsOf(browser, `/q/${links.code}`)).toEqual([]);
  expect(await errorsOf(browser, `/q/${card.code}`)).toEqual([]);
});

test("the create form makes a link page, whose edit form changes its links; the short link shows them", async ({
  page,
  request,
}) => {
  const user = await account("hosted-form", "pro", "Hugo Hosted");
  const { key } = await generateKey(user.id, "personal");
  const headers = { "x-api-key": key };
  await logIn(page, user.email, "/library");
  await page.getByLabel("Type", { exact: true }).selectOption("page");
  await expect(page.getByLabel("Destination URL", { exact: true })).toHaveCount(0);
  await page.getByLabel("Name", { exact: true }).fill("Café links");
  await page.getByLabel("Page title").fill("Café Linden");
  await page.getByLabel("Links").fill("Menu, https://example.com/menu\nNo address here");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("library-error")).toContainText("content.links[1].url");
  await page.getByLabel("Links").fill("Menu, https://example.com/menu\nBook a table, https://example.com/book");
  expect(await accessibilityErrors(page)).toEqual([]);
  await shotAtWidths(page, "hosted-page-form");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("page-of")).toContainText("1 code");
  const [rec] = (await (await request.get("/v1/dynqrcodes", { headers })).json()).dynqrcodes as {
    code: string;
    type: string;
    content: unknown;
  }[];
  expect([rec.type, rec.content]).toEqual([
    "page",
    {
      title: "Café Linden",
      links: [
        { label: "Menu", url: "https://example.com/menu" },
        { label: "Book a table", url: "https://example.com/book" },
      ],
    },
  ]);
  await expect(page.getByTestId(`item-${rec.code}`)).toContainText("Page: Café Linden (2 links)");

  await page.getByTestId(`item-${rec.code}`).getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("form", { name: "Edit Café links" });
  await expect(form.getByLabel("Links")).toHaveValue(
    "Menu, https://example.com/menu\nBook a table, https://example.com/book",
  );
  await form.getByLabel("Page title").fill("Café Linden — winter");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId(`item-${rec.code}`)).toContainText("Page: Café Linden — winter (2 links)");
  const short = await request.get(`/q/${rec.code}`);
  expect(await short.text()).toContain("<h1>Café Linden — winter</h1>");
});
