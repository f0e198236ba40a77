// Long names, URLs and emails never widen a page: a 200-character name, a ~300-character URL,
// a team member's long email and a draft with a long URL, on /library, /business, /analytics
// and /analytics/<code> at phone and desktop width. Then the paper cuts around them: errors at
// their own form (focused, cleared by the next change), Reject asks first, every bad pasted
// line is named, a name too long is reported (never cut), analytics in words.
import { randomUUID } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createDynamicCodes, deleteDynamicCode } from "../server/library/dynamicCodes";
import { createStaticCodes } from "../server/library/staticCodes";
import { addMember, createTeam, generateBusinessKey } from "../server/teams/teams";
import { createUser } from "../server/accounts/users";
import { account, logIn, openSection, PASSWORD, shot } from "./helpers";

const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

/** 200 characters and not one space: nothing to break at but what the page allows. */
const LONG_NAME = `Long${"N".repeat(190)}${randomUUID().slice(0, 6)}`;
/** About 300 characters, one path segment and one query value, no spaces. */
const LONG_URL = `https://example.com/${"segment".repeat(20)}?utm_campaign=${"x".repeat(120)}&ok=1`;

/** The page scrolls only up and down. */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const [scrollWidth, innerWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    window.innerWidth,
  ]);
  expect(scrollWidth, `${where}: ${scrollWidth}px wide in a ${innerWidth}px window`).toBeLessThanOrEqual(innerWidth);
}

/**
 * Where the text of `locator` breaks into lines inside a word: not at a space, not after an @
 * and not before a dot. Each such break as the two characters around it ("admi|n").
 */
async function breaksInsideWords(locator: Locator): Promise<string[]> {
  return locator.evaluate((element) => {
    const chars: { ch: string; top: number; afterSpace: boolean }[] = [];
    let space = false;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (let i = 0; i < text.length; i++) {
        if (!text[i].trim()) {
          space = true;
          continue;
        }
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (rect) chars.push({ ch: text[i], top: Math.round(rect.top), afterSpace: space });
        space = false;
      }
    }
    return chars.flatMap((c, i) => {
      const before = chars[i - 1];
      const newLine = before && c.top > before.top + 2;
      return newLine && !c.afterSpace && before.ch !== "@" && c.ch !== "." ? [`${before.ch}|${c.ch}`] : [];
    });
  });
}

test("long names, URLs and emails wrap on every page at phone and desktop width", async ({ browser, request }) => {
  expect(LONG_NAME).toHaveLength(200);
  expect(LONG_URL.length).toBeGreaterThan(280);
  const owner = await account("long", "business", "Lena Long");
  const team = await createTeam(owner.id, "Long Team");
  // An address as long as real ones get, with no hyphen to break at.
  const writerEmail = `maximilianalexander.featherstonehaugh.${randomUUID().slice(0, 8)}@engineering.department.exampleorganisation.test`;
  const writer = await createUser(
    { email: writerEmail, password: PASSWORD, name: "Maximilian Featherstonehaugh" },
    "free",
    { verified: true },
  );
  await addMember(owner.id, writerEmail, "writer");
  // The writer's key puts the long address in the team keys table too.
  await generateBusinessKey(writer.id);

  const personal = { userId: owner.id, library: { kind: "personal" as const, userId: owner.id } };
  const [code] = await createDynamicCodes(personal, [{ name: LONG_NAME, destination_url: LONG_URL }]);
  await createStaticCodes(personal, [{ name: `${LONG_NAME.slice(0, 199)}S`, url: LONG_URL }]);
  const asWriter = { userId: writer.id, library: { kind: "team" as const, teamId: team.id }, role: "writer" as const };
  const [draft] = await createDynamicCodes(asWriter, [{ name: LONG_NAME, destination_url: LONG_URL }]);
  expect(draft.status).toBe("draft");
  // Two scans: one from Germany (the test server trusts cf-ipcountry), one from an address of no
  // known country (ZZ).
  const browserAgent =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
  const scans: Record<string, string>[] = [
    { "user-agent": browserAgent, "cf-ipcountry": "DE" },
    { "user-agent": browserAgent },
  ];
  for (const headers of scans) {
    expect((await request.get(`/q/${code.code}`, { headers, maxRedirects: 0 })).status()).toBe(302);
  }

  for (const [width, viewport] of Object.entries(WIDTHS)) {
    const page = await browser.newPage({ viewport });
    await logIn(page, owner.email, "/library");
    const pages: [string, string, () => Promise<void>][] = [
      ["library", "/library", () => expect(page.getByTestId(`item-${code.code}`)).toContainText(LONG_NAME)],
      [
        "business",
        "/business?section=review",
        () => expect(page.getByTestId(`draft-${draft.code}`)).toContainText(LONG_URL),
      ],
      ["analytics", "/analytics", () => expect(page.getByRole("link", { name: LONG_NAME }).first()).toBeVisible()],
      ["analytics-code", `/analytics/${code.code}`, () => expect(page.getByTestId("daily-chart")).toBeVisible()],
    ];
    for (const [name, path, ready] of pages) {
      await page.goto(path);
      await ready();
      await expectNoSidewaysScroll(page, `${path} at ${viewport.width}px`);
      await shot(page, `long-${name}-${width}`);
    }
    // The team's tables (each in its section of /business): the email is whole on its line or
    // broken at a dot or @, never mid-word.
    const sectionShot = (section: string) =>
      page
        .locator("section", { has: page.getByRole("heading", { name: section, exact: true }) })
        .screenshot({ path: `e2e/screenshots/long-business-${section.toLowerCase().replace(" ", "-")}-${width}.png` });
    await page.goto("/business?section=members");
    const member = page.getByTestId(`member-${writerEmail}`);
    await expect(member).toContainText(writerEmail);
    await expect(page.getByLabel(`Role of ${writerEmail}`)).toHaveValue("writer");
    expect(await breaksInsideWords(member.locator("td").first()), `members email at ${viewport.width}px`).toEqual([]);
    expect(await breaksInsideWords(page.getByTestId("team-role")), `your role at ${viewport.width}px`).toEqual([]);
    await expectNoSidewaysScroll(page, `/business?section=members at ${viewport.width}px`);
    await sectionShot("Members");
    await openSection(page, "Keys");
    const keyRow = page.getByTestId(`team-key-${writerEmail}`);
    await expect(keyRow).toContainText(writerEmail);
    expect(await breaksInsideWords(keyRow.locator("td").first()), `team keys email at ${viewport.width}px`).toEqual([]);
    await expectNoSidewaysScroll(page, `/business?section=keys at ${viewport.width}px`);
    await sectionShot("Team keys");
    await openSection(page, "Review");
    await sectionShot("Review queue");
    const approve = page.getByTestId(`draft-${draft.code}`).getByRole("button", { name: "Approve" });
    const reject = page.getByTestId(`draft-${draft.code}`).getByRole("button", { name: "Reject" });
    // Approve and Reject side by side, each on one line.
    const [a, r] = [(await approve.boundingBox())!, (await reject.boundingBox())!];
    expect(Math.abs(a.y - r.y)).toBeLessThan(2);
    expect(a.height).toBe(r.height);
    expect(a.height).toBeLessThan(48);
    await page.close();
  }

  // The code's analytics page in words: its name beside its code, countries by name, "1 scan".
  const page = await browser.newPage({ viewport: WIDTHS.desktop });
  await logIn(page, owner.email, `/analytics/${code.code}`);
  // The scans are written a moment after the redirects.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("total-scans")).toHaveText("2", { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expect(page.getByRole("heading", { level: 1 })).toContainText(LONG_NAME);
  await expect(page.getByTestId("analytics-code")).toHaveText(code.code);
  await expect(page.getByTestId("range-summary")).toContainText("2 scans");
  const countries = page.locator("section", { has: page.getByRole("heading", { name: "Countries" }) });
  await expect(countries.locator("tr")).toHaveText([/^Germany.*1 scan$/, /^Unknown.*1 scan$/]);
  await expect(countries).not.toContainText("ZZ");
  await shot(page, "long-analytics-words");
  await page.goto("/analytics");
  const personalSummary = page.locator("section", { has: page.getByRole("heading", { name: "Your library" }) });
  await expect(personalSummary).toContainText("2 scans");
  await expect(personalSummary).toContainText("across 1 code.");
  await expect(page.locator("main")).not.toContainText(/\b1 (scans|codes)\b/);

  // A deleted code's page says so (its history stays readable).
  const [gone] = await createDynamicCodes(personal, [
    { name: "Retired poster", destination_url: "https://example.com/retired" },
  ]);
  await deleteDynamicCode(personal, gone.code);
  await page.goto(`/analytics/${gone.code}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Retired poster");
  await expect(page.getByTestId("code-deleted")).toContainText("deleted");
  await shot(page, "long-analytics-deleted");
  await page.close();
});

test("errors appear at their own form, take the focus, and clear with the next change", async ({ browser }) => {
  const owner = await account("form-errors", "business", "Fern Forms");
  await createTeam(owner.id, "Form Team");
  const writer = await account("form-writer", "free", "Wren Writer");
  await addMember(owner.id, writer.email, "writer");
  const personal = { userId: owner.id, library: { kind: "personal" as const, userId: owner.id } };
  const [code] = await createDynamicCodes(personal, [{ name: "Menu", destination_url: "https://example.com/menu" }]);
  const page = await browser.newPage({ viewport: WIDTHS.phone });
  await logIn(page, owner.email, "/library");
  const row = page.getByTestId(`item-${code.code}`);

  // A name over 200 characters is reported, not cut (no maxLength on the field).
  const tooLong = "T".repeat(201);
  await page.getByLabel("Name", { exact: true }).fill(tooLong);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(tooLong);
  await page.getByLabel("Destination URL", { exact: true }).fill("https://example.com/long");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const createError = page.getByTestId("library-error");
  // In the label's words, not the API's field names.
  await expect(createError).toHaveText("Name must be 1 to 200 characters (after trimming)");
  await expect(createError).toBeFocused();
  await expect(page.getByTestId("page-of")).toContainText("1 code");
  await shot(page, "form-error-create");
  await page.getByLabel("Name", { exact: true }).fill("");
  await expect(createError).toHaveCount(0);
  await page.getByLabel("Name", { exact: true }).fill("Menu by FTP");
  await page.getByLabel("Destination URL", { exact: true }).fill("ftp://example.com/menu");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(createError).toHaveText("Destination URL must be an absolute http or https URL");
  await shot(page, "form-error-label-words");
  await page.getByLabel("Destination URL", { exact: true }).fill("https://example.com/menu");
  await expect(createError).toHaveCount(0);
  // A static code's field is the URL.
  await page.getByLabel("Kind").selectOption("static");
  await page.getByLabel("URL", { exact: true }).fill("ftp://example.com/menu");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(createError).toHaveText("URL must be an absolute http or https URL");
  await page.getByLabel("URL", { exact: true }).fill("");
  await expect(createError).toHaveCount(0);

  // Edit: the error at the edit form, focused; a change clears it.
  await row.getByRole("button", { name: "Edit" }).click();
  await row.getByLabel("Name").fill(tooLong);
  await expect(row.getByLabel("Name")).toHaveValue(tooLong);
  await row.getByRole("button", { name: "Save", exact: true }).click();
  const editError = row.getByTestId(`edit-error-${code.code}`);
  await expect(editError).toHaveText("Name must be 1 to 200 characters (after trimming)");
  await expect(editError).toBeFocused();
  await expect(row.getByRole("form", { name: "Edit Menu" }).getByRole("alert")).toHaveCount(1);
  await expect(page.getByTestId("library-error")).toHaveCount(0);
  await shot(page, "form-error-edit");
  await row.getByLabel("Name").fill("Menu of the day");
  await expect(editError).toHaveCount(0);
  await row.getByRole("button", { name: "Cancel" }).click();

  // Style: a save that fails (the code was deleted meanwhile) shows its error at the editor.
  await row.getByRole("button", { name: "Style" }).click();
  await row.getByLabel("Foreground").fill("#1a2b3c");
  await deleteDynamicCode(personal, code.code);
  await row.getByRole("button", { name: "Save style" }).click();
  const styleError = row.getByTestId(`style-error-${code.code}`);
  await expect(styleError).toContainText("not found");
  await expect(styleError).toBeFocused();
  await expect(page.getByTestId("library-error")).toHaveCount(0);
  await shot(page, "form-error-style");
  await row.getByLabel("Margin (modules)").fill("3");
  await expect(styleError).toHaveCount(0);

  // Paste many: every bad line is named, each on its own line.
  await page.goto("/library");
  await page.getByRole("button", { name: "Paste many" }).click();
  await page
    .getByLabel("Lines")
    .fill(`${tooLong}, https://example.com/a\nGood, https://example.com/b\nno comma\nBad, ftp://example.com/c`);
  await page.getByRole("button", { name: "Create all" }).click();
  const pasteError = page.getByTestId("library-error");
  await expect(pasteError).toContainText("Line 1: Name must be 1 to 200 characters");
  await expect(pasteError).toContainText("Line 3: write it as: name, https://…");
  await expect(pasteError).toContainText("Line 4: Destination URL must be an absolute http or https URL");
  await expect(pasteError).not.toContainText("destination_url");
  await shot(page, "form-error-paste");

  // Invite: the error at the invitation form, focused; typing clears it.
  await page.goto("/business?section=members");
  await page.getByLabel("Email").fill(writer.email);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const memberError = page.getByTestId("member-error");
  await expect(memberError).toContainText("This account is already in your team");
  await expect(memberError).toBeFocused();
  await expect(page.getByTestId("team-error")).toHaveCount(0);
  await shot(page, "form-error-member");
  await page.getByLabel("Email").fill(`nobody-${randomUUID()}@test.example`);
  await expect(memberError).toHaveCount(0);
  await page.close();
});

test("Reject asks first: dismissed keeps the draft, accepted removes it", async ({ browser }) => {
  const admin = await account("reject-admin", "business", "Rex Admin");
  const team = await createTeam(admin.id, "Reject Team");
  const writer = await account("reject-writer", "free", "Wes Writer");
  await addMember(admin.id, writer.email, "writer");
  const [draft] = await createDynamicCodes(
    { userId: writer.id, library: { kind: "team", teamId: team.id }, role: "writer" },
    [{ name: "Maybe poster", destination_url: "https://example.com/maybe" }],
  );
  const page = await browser.newPage();
  await logIn(page, admin.email, "/business?section=review");
  const row = page.getByTestId(`draft-${draft.code}`);
  await row.getByRole("button", { name: "Reject" }).click();
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "Reject" }).click();
  await row.getByLabel("Reason for rejecting “Maybe poster”").fill("Not this season");
  await row.getByRole("button", { name: "Reject and delete" }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId("no-drafts")).toBeVisible();
  await page.close();
});
