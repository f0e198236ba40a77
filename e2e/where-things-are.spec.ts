// Where things are (issue 39, points 4 and 6): log-in and sign-up land on the library; creating
// comes before importing; the Kind menu's words fit; the ZIP panel's words match where the codes
// are; on a phone the style preview stays in sight and breakdown labels break between words;
// /business is sections a person jumps between, each a screen or two; the owner's row offers no
// control the server refuses.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createDynamicCodes } from "../server/library/dynamicCodes";
import { createStaticCodes } from "../server/library/staticCodes";
import { addMember, createTeam, generateBusinessKey } from "../server/teams/teams";
import { account, logIn, PASSWORD, shot } from "./helpers";

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

const top = async (locator: Locator) => (await locator.boundingBox())!.y;

test("sign-up and log-in land on the library", async ({ browser }) => {
  const email = `landing-${Date.now()}@test.example`;
  const signup = await browser.newPage();
  await signup.goto("/signup");
  await signup.getByLabel("Email").fill(email);
  await signup.getByLabel("Password").fill(PASSWORD);
  await signup.getByLabel("Name").fill("Lana Landing");
  await signup.getByRole("button", { name: "Create account" }).click();
  await expect(signup).toHaveURL(/\/library$/, { timeout: 30_000 });
  await expect(signup.getByRole("heading", { name: "Your library" })).toBeVisible();
  await signup.close();

  const login = await browser.newPage();
  await login.goto("/login");
  await login.getByLabel("Email").fill(email);
  await login.getByLabel("Password").fill(PASSWORD);
  await login.getByRole("button", { name: "Log in" }).click();
  await expect(login).toHaveURL(/\/library$/, { timeout: 30_000 });
  // Logged in already: /login and /signup send to the library too.
  for (const path of ["/login", "/signup"]) {
    await login.goto(path);
    await expect(login).toHaveURL(/\/library$/);
  }
  await login.close();
});

/** The widest option of a <select> against the room its box leaves for text (its arrow included). */
async function optionOverflow(select: Locator) {
  return select.evaluate((element: HTMLSelectElement) => {
    const style = getComputedStyle(element);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const widest = Math.max(...[...element.options].map((o) => context.measureText(o.text).width));
    // Chromium draws the menu's arrow inside the box: about 20 px beside the padding.
    const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    return { widest: Math.ceil(widest), room };
  });
}

for (const viewport of WIDTHS) {
  test(`/library at ${viewport.width} px: create, then import, then the codes; the Kind menu fits; the ZIP panel says where the codes are`, async ({
    browser,
  }) => {
    const person = await account("where", "pro", "Wren Where");
    const library = { userId: person.id, library: { kind: "personal" as const, userId: person.id } };
    await createDynamicCodes(library, [{ name: "Shop window", destination_url: "https://example.com/shop" }]);
    await createStaticCodes(library, [{ name: "Wi-Fi", url: "https://example.com/wifi" }]);
    const page = await browser.newPage({ viewport });
    await logIn(page, person.email, "/library");

    const create = page.getByRole("heading", { name: "Create codes" });
    const importing = page.getByRole("heading", { name: "Import a CSV file" });
    const codes = page.getByRole("heading", { name: "Codes", exact: true });
    expect(await top(create)).toBeLessThan(await top(importing));
    expect(await top(importing)).toBeLessThan(await top(codes));

    const kind = page.locator("#personal-kind");
    const { widest, room } = await optionOverflow(kind);
    expect(widest, `the widest Kind option needs ${widest}px, the menu leaves ${room}px`).toBeLessThanOrEqual(room);
    expect(await kind.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);

    // The ZIP panel's hint names the codes' place, and they are there.
    const zip = page.getByTestId("zip-download");
    await expect(zip).toContainText("Tick codes in the list above");
    const lastItem = page.locator("li.item").last();
    const itemBox = (await lastItem.boundingBox())!;
    expect(await top(zip)).toBeGreaterThanOrEqual(itemBox.y + itemBox.height);
    await shot(page, `where-library-${viewport.width}`);
    await page.close();
  });
}

test("on a phone the style preview stays in sight while the colours are edited", async ({ browser }) => {
  const person = await account("preview", "pro", "Pia Preview");
  const [code] = await createDynamicCodes({ userId: person.id, library: { kind: "personal", userId: person.id } }, [
    { name: "Poster", destination_url: "https://example.com/poster" },
  ]);
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await logIn(page, person.email, "/library");
  const row = page.getByTestId(`item-${code.code}`);
  await row.getByRole("button", { name: "Style" }).click();
  const preview = row.getByTestId("style-preview");
  await expect(preview).toBeVisible();
  const inView = async (locator: Locator) => {
    const box = (await locator.boundingBox())!;
    return box.y >= 0 && box.y + box.height <= 844;
  };
  // Reached by the keyboard, each field is in sight and not under the preview, and the preview too.
  const uncovered = (locator: Locator) =>
    locator.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return element.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
    });
  for (const field of ["Foreground", "Background", "Finder colour", "Frame colour"]) {
    const input = row.getByLabel(field, { exact: true });
    await input.focus();
    expect(await inView(input), field).toBe(true);
    expect(await uncovered(input), `${field} is not under the preview`).toBe(true);
    expect(await inView(preview), `the preview while editing ${field}`).toBe(true);
    if (field === "Foreground" || field === "Frame colour")
      await page.screenshot({
        path: `e2e/screenshots/where-style-preview-${field.split(" ")[0].toLowerCase()}-390.png`,
      });
  }
  await page.close();
});

/**
 * Words of the first cell of each breakdown row (beside its bar) drawn on more than one line
 * although they would fit on one (a URL longer than the cell has to break somewhere).
 */
const brokenWords = (page: Page) =>
  page.evaluate(() => {
    const broken: string[] = [];
    for (const bar of document.querySelectorAll(".bar")) {
      const cell = bar.closest("tr")!.cells[0];
      const text = cell.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) continue;
      const style = getComputedStyle(cell);
      const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      for (const match of text.textContent!.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        const rects = [...range.getClientRects()];
        const lines = new Set(rects.map((r) => Math.round(r.top)));
        const width = rects.reduce((sum, r) => sum + r.width, 0);
        if (lines.size > 1 && width <= room) broken.push(match[0]);
      }
    }
    return broken;
  });

test("breakdown labels break between words on a phone", async ({ browser, request }) => {
  const person = await account("labels", "pro", "Lou Labels");
  const [code] = await createDynamicCodes({ userId: person.id, library: { kind: "personal", userId: person.id } }, [
    {
      name: "Labels",
      destination_url: "https://example.com/a-rather-long-destination/that-has-to-wrap-somewhere-on-a-phone-screen",
    },
  ]);
  const agents = [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  ];
  // No country header: the country is Unknown.
  for (const agent of agents)
    expect((await request.get(`/q/${code.code}`, { headers: { "user-agent": agent }, maxRedirects: 0 })).status()).toBe(
      302,
    );
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await logIn(page, person.email, `/analytics/${code.code}`);
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("cell", { name: "mobile", exact: true })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole("cell", { name: "Unknown", exact: true })).toBeVisible();
  expect(await brokenWords(page)).toEqual([]);
  const [scrollWidth, innerWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    window.innerWidth,
  ]);
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await shot(page, "where-analytics-labels-390");
  await page.close();
});

/** A team with a writer and a viewer, drafts in the queue and keys: every section has something to show. */
async function team(prefix: string) {
  const owner = await account(prefix, "business", "Otto Owner");
  const t = await createTeam(owner.id, "Sections Team");
  const admin = await account(`${prefix}-admin`, "free", "Ada Admin");
  const writer = await account(`${prefix}-writer`, "free", "Wim Writer");
  const viewer = await account(`${prefix}-viewer`, "free", "Vera Viewer");
  await addMember(owner.id, admin.email, "admin");
  await addMember(owner.id, writer.email, "writer");
  await addMember(owner.id, viewer.email, "viewer");
  await generateBusinessKey(owner.id);
  await generateBusinessKey(writer.id);
  const asWriter = { userId: writer.id, library: { kind: "team" as const, teamId: t.id }, role: "writer" as const };
  await createDynamicCodes(asWriter, [{ name: "Poster draft", destination_url: "https://example.com/poster" }]);
  await createStaticCodes(asWriter, [{ name: "Leaflet draft", url: "https://example.com/leaflet" }]);
  return { owner, admin, writer, viewer };
}

const SECTIONS: [string, string, (page: Page) => Locator][] = [
  ["library", "Library", (page) => page.getByRole("heading", { name: "Team library" })],
  ["create", "Create", (page) => page.getByRole("heading", { name: "Create codes" })],
  ["review", "Review", (page) => page.getByTestId("review-queue")],
  ["members", "Members", (page) => page.getByRole("heading", { name: "Members", exact: true })],
  ["keys", "Keys", (page) => page.getByRole("heading", { name: "Team keys" })],
  ["webhooks", "Webhooks", (page) => page.getByTestId("webhooks")],
  ["brand-kits", "Brand kits", (page) => page.getByTestId("brand-kits")],
  ["domains", "Domains", (page) => page.getByTestId("domains")],
  ["activity", "Activity", (page) => page.getByTestId("activity-team")],
];

for (const viewport of WIDTHS) {
  test(`/business at ${viewport.width} px: one section at a time, each a screen or two, reached by the menu, the keyboard and a link`, async ({
    browser,
  }) => {
    const { owner } = await team(`sections-${viewport.width}`);
    const page = await browser.newPage({ viewport });
    await logIn(page, owner.email, "/business");
    const menu = page.getByRole("navigation", { name: "Sections of the team page" });
    await expect(menu.getByRole("link")).toHaveText(SECTIONS.map(([, label]) => label));
    // The first section is the library; the others are not on the page.
    await expect(SECTIONS[0][2](page)).toBeVisible();
    await expect(page.getByTestId("review-queue")).toHaveCount(0);

    for (const [id, label, shown] of SECTIONS) {
      await menu.getByRole("link", { name: label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/business\\?section=${id}$`));
      await expect(shown(page)).toBeVisible();
      await expect(menu.getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
      for (const [other, , hidden] of SECTIONS) if (other !== id) await expect(hidden(page)).toHaveCount(0);
      await page.waitForLoadState("networkidle");
      await shot(page, `where-business-${id}-${viewport.width}`);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      // Create holds three cards since the import from another service (issue 43): 2.5 screens on a phone.
      expect(height, `${id}: ${height}px high in a ${viewport.height}px window`).toBeLessThanOrEqual(
        (id === "create" ? 2.5 : 2) * viewport.height,
      );
      if (id === "create") {
        expect(await top(page.getByRole("heading", { name: "Create codes" }))).toBeLessThan(
          await top(page.getByRole("heading", { name: "Import a CSV file" })),
        );
      }
    }

    // Back returns to the section before; the keyboard reaches and opens a section.
    await page.goBack();
    await expect(page).toHaveURL(/section=domains$/);
    await expect(page.getByTestId("domains")).toBeVisible();
    await menu.getByRole("link", { name: "Members" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/section=members$/);
    await expect(page.getByRole("heading", { name: "Members", exact: true })).toBeVisible();

    // A link opens the section it names, as ?section= or as #.
    await page.goto("/business?section=review");
    await expect(page.getByTestId("review-queue").locator("li")).toHaveCount(2);
    await page.goto("/business#keys");
    await expect(page.getByRole("heading", { name: "Team keys" })).toBeVisible();
    await expect(page).toHaveURL(/\/business\?section=keys$/);
    await page.close();
  });
}

test("/business: a writer sees no admin sections, and a section they cannot see opens the library", async ({
  browser,
}) => {
  const { writer, viewer } = await team("sections-writer");
  const page = await browser.newPage();
  await logIn(page, writer.email, "/business?section=webhooks");
  const menu = page.getByRole("navigation", { name: "Sections of the team page" });
  await expect(menu.getByRole("link")).toHaveText(["Library", "Create", "Review", "Members", "Keys"]);
  await expect(page.getByRole("heading", { name: "Team library" })).toBeVisible();
  await expect(page.getByTestId("webhooks")).toHaveCount(0);
  await page.close();
  const viewing = await browser.newPage();
  await logIn(viewing, viewer.email, "/business");
  await expect(viewing.getByRole("navigation", { name: "Sections of the team page" }).getByRole("link")).toHaveText([
    "Library",
    "Review",
    "Members",
    "Keys",
  ]);
  await viewing.close();
});

test("the owner's row offers no role menu and no Remove, to the owner or another admin", async ({ browser }) => {
  const { owner, admin, writer } = await team("owner-row");
  for (const person of [owner, admin]) {
    const page = await browser.newPage();
    await logIn(page, person.email, "/business?section=members");
    const ownerRow = page.getByTestId(`member-${owner.email}`);
    await expect(ownerRow).toContainText("owner");
    await expect(ownerRow.getByRole("cell").nth(1)).toHaveText("admin");
    await expect(ownerRow.getByRole("combobox")).toHaveCount(0);
    await expect(ownerRow.getByRole("button")).toHaveCount(0);
    // Any other member's row keeps its controls.
    const writerRow = page.getByTestId(`member-${writer.email}`);
    await expect(writerRow.getByRole("combobox", { name: `Role of ${writer.email}` })).toHaveValue("writer");
    await expect(writerRow.getByRole("button", { name: "Remove" })).toBeVisible();
    await shot(page, `where-owner-row-${person === owner ? "owner" : "admin"}`);
    await page.close();
  }
});
