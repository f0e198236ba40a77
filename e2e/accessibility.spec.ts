// Every page checked with HTML_CodeSniffer against WCAG 2 AA, with data on it: no errors, and
// no sideways scrolling. Each page at desktop width; /docs, /library and each section of
// /business at phone width too; /library again with a code's edit form and then its style editor open; /docs with
// a list and a create opened in "Try it out", then with the Authorize dialog; /library's CSV
// import in each of its states.
import { expect, test, type Page } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { createDynamicCodes } from "../server/library/dynamicCodes";
import { createStaticCodes } from "../server/library/staticCodes";
import { addMember, createTeam, generateBusinessKey } from "../server/teams/teams";
import { createWebhook } from "../server/webhooks";
import { addDomain } from "../server/domains/domains";
import { createPreset } from "../server/stylePresets/stylePresets";
import { accessibilityErrors, account, logIn, shot } from "./helpers";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Swagger UI's bundle (1.4 MB) takes a while to parse on a busy machine. */
const SWAGGER_READY = 30_000;

test("every page has no WCAG 2 AA error (HTML_CodeSniffer) and no sideways scrolling", async ({ browser, request }) => {
  // Eight pages, the sections of /business and their variants, each audited: well over the default minute on a busy machine.
  test.setTimeout(360_000);
  // An admin with a personal library, a key and a webhook of each kind, a writer and a viewer,
  // the writer's drafts in the review queue and scans to chart.
  const owner = await account("a11y", "business", "Alma Access");
  const team = await createTeam(owner.id, "Access Team");
  const writer = await account("a11y-writer", "free", "Wim Writer");
  const viewer = await account("a11y-viewer", "free", "Vera Viewer");
  await addMember(owner.id, writer.email, "writer");
  await addMember(owner.id, viewer.email, "viewer");
  await generateKey(owner.id, "personal");
  await generateBusinessKey(owner.id);
  await generateBusinessKey(writer.id);
  const personal = { userId: owner.id, library: { kind: "personal" as const, userId: owner.id } };
  const [code] = await createDynamicCodes(personal, [
    { name: "Shop window", destination_url: "https://example.com/shop" },
    { name: "Lunch menu", destination_url: "https://example.com/menu" },
  ]);
  await createStaticCodes(personal, [{ name: "Wi-Fi", url: "https://example.com/wifi" }]);
  const asWriter = { userId: writer.id, library: { kind: "team" as const, teamId: team.id }, role: "writer" as const };
  await createDynamicCodes(asWriter, [{ name: "Poster draft", destination_url: "https://example.com/poster" }]);
  await createStaticCodes(asWriter, [{ name: "Leaflet draft", url: "https://example.com/leaflet" }]);
  await createWebhook(personal, {
    url: "http://127.0.0.1:9/personal",
    events: ["dynqrcode.created"],
    description: "Order system",
  });
  await createWebhook(
    { userId: owner.id, library: { kind: "team", teamId: team.id }, role: "admin" },
    { url: "http://127.0.0.1:9/team", events: ["scan.created"] },
  );
  // A domain waiting for its TXT record: its row shows the record to create.
  const teamDomain = `a11y-${owner.id.slice(-8).toLowerCase()}.example.com`;
  await addDomain(
    { userId: owner.id, library: { kind: "team", teamId: team.id }, role: "admin" },
    { domain: teamDomain },
  );
  await createPreset(
    { userId: owner.id, library: { kind: "team", teamId: team.id }, role: "admin" },
    {
      name: "Team blue",
      style: { foreground: "#0b3d91", module_shape: "rounded", frame: { text: "Scan me", color: "#0b3d91" } },
    },
  );
  const browserAgent =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
  for (const country of ["DE", "FR", undefined]) {
    const headers = { "user-agent": browserAgent, ...(country ? { "cf-ipcountry": country } : {}) };
    expect((await request.get(`/q/${code.code}`, { headers, maxRedirects: 0 })).status()).toBe(302);
  }

  const errors: string[] = [];
  const audit = async (page: Page, name: string) => {
    errors.push(...(await accessibilityErrors(page)).map((e) => `[${name}] ${e}`));
    // Reflow (WCAG 1.4.10), which HTML_CodeSniffer leaves to people: no sideways scrolling.
    const [scrollWidth, innerWidth] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      window.innerWidth,
    ]);
    if (scrollWidth > innerWidth) errors.push(`[${name}] ${scrollWidth}px wide in a ${innerWidth}px window`);
    await shot(page, `a11y-${name}`);
  };

  const anonymous = await browser.newPage({ viewport: DESKTOP });
  // The account pages a mailed link opens are checked with a token that is no good: the page
  // a person meets when a link has expired.
  for (const path of [
    "/",
    "/login",
    "/signup",
    "/forgot-password",
    "/reset-password?token=expired",
    "/verify-email?token=expired",
    "/confirm-email?token=expired",
    "/undo-email-change?token=expired",
    "/invite/expired",
  ]) {
    await anonymous.goto(path);
    await expect(anonymous.locator("main h1").first()).toBeVisible();
    await audit(anonymous, `${path.split("?")[0].slice(1).replace("/", "-") || "home"}-1280`);
  }
  await anonymous.close();

  for (const [width, viewport] of [
    ["1280", DESKTOP],
    ["390", PHONE],
  ] as const) {
    const page = await browser.newPage({ viewport });
    await logIn(page, owner.email, "/library");
    const pages: [string, string, () => Promise<void>][] = [
      ["library", "/library", () => expect(page.getByTestId(`item-${code.code}`)).toBeVisible()],
      // /business, one section at a time.
      ...(
        [
          ["library", () => expect(page.getByRole("heading", { name: "Team library" })).toBeVisible()],
          ["create", () => expect(page.getByTestId("csv-import-team")).toBeVisible()],
          ["review", () => expect(page.getByTestId("review-queue").locator("li")).toHaveCount(2)],
          ["members", () => expect(page.getByTestId(`member-${writer.email}`)).toBeVisible()],
          ["keys", () => expect(page.getByTestId(`team-key-${writer.email}`)).toBeVisible()],
          ["webhooks", () => expect(page.getByTestId("webhook-http://127.0.0.1:9/team")).toBeVisible()],
          ["brand-kits", () => expect(page.getByTestId("kit-Team blue")).toBeVisible()],
          ["domains", () => expect(page.getByTestId(`domain-${teamDomain}`)).toBeVisible()],
          ["activity", () => expect(page.getByTestId("activity-entry").first()).toBeVisible()],
        ] as const
      ).map(([section, ready]): [string, string, () => Promise<void>] => [
        `business-${section}`,
        `/business?section=${section}`,
        ready,
      ]),
      ...(width === "1280"
        ? ([
            ["analytics", "/analytics", () => expect(page.getByRole("link", { name: "Shop window" })).toBeVisible()],
            ["analytics-code", `/analytics/${code.code}`, () => expect(page.getByTestId("daily-chart")).toBeVisible()],
            ["profile", "/profile", () => expect(page.getByTestId("webhooks").getByText("Order system")).toBeVisible()],
          ] satisfies [string, string, () => Promise<void>][])
        : []),
      ["docs", "/docs", () => expect(page.locator(".opblock").first()).toBeVisible({ timeout: SWAGGER_READY })],
    ];
    for (const [name, path, ready] of pages) {
      await page.goto(path);
      await ready();
      await audit(page, `${name}-${width}`);
    }

    // /docs: the server choice is named; a list and a create opened with "Try it out" (their
    // parameters, body editor, responses and examples); the Authorize dialog.
    await expect(page.getByRole("combobox", { name: "Server" })).toHaveValue(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    for (const method of ["get", "post"]) {
      const operation = page.locator(`.opblock-${method}`, {
        has: page.locator('.opblock-summary-path[data-path="/qrcodes"]'),
      });
      await operation.locator(".opblock-summary").click();
      await operation.getByRole("button", { name: "Try it out" }).click();
      await expect(operation.getByRole("button", { name: "Execute" })).toBeVisible();
    }
    await audit(page, `docs-open-${width}`);
    await page.locator(".auth-wrapper .authorize").click();
    await expect(page.locator(".modal-ux")).toBeVisible();
    await audit(page, `docs-authorize-${width}`);

    // /library with a code's edit form open, then its style editor.
    await page.goto("/library");
    const row = page.getByTestId(`item-${code.code}`);
    await row.getByRole("button", { name: "Edit" }).click();
    await expect(row.getByRole("button", { name: "Save", exact: true })).toBeVisible();
    await audit(page, `library-edit-${width}`);
    await row.getByRole("button", { name: "Style" }).click();
    await expect(row.getByRole("button", { name: "Save style" })).toBeVisible();
    await audit(page, `library-style-${width}`);

    // /library's CSV import in each state: a refused file, a checked one, an import stopped
    // (its batch failed), the notice after a reload, and an import done.
    await page.goto("/library");
    const panel = page.getByTestId("csv-import-personal");
    const choose = (name: string, text: string) =>
      page
        .getByLabel("CSV file", { exact: true })
        .setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
    await choose("flyers.csv", "name,url\nFlyer,ftp://example.com/flyer\n");
    await expect(panel.getByTestId("import-problems")).toContainText("Line 2: URL must be");
    await audit(page, `library-import-refused-${width}`);
    const good = `name,url\nFlyer ${width},https://example.com/flyer/${width}\n`;
    await choose("flyers.csv", good);
    await expect(panel.getByTestId("import-ready")).toBeVisible();
    await audit(page, `library-import-ready-${width}`);
    await page.route(
      (url) => url.pathname.includes("libraryImport.batch"),
      (route) => route.abort(),
    );
    await panel.getByRole("button", { name: "Import 1 static code" }).click();
    await expect(panel.getByTestId("import-stopped")).toBeVisible();
    await audit(page, `library-import-stopped-${width}`);
    await page.unrouteAll();
    await page.reload();
    await expect(panel.getByTestId("import-unfinished")).toBeVisible();
    await audit(page, `library-import-unfinished-${width}`);
    await choose("flyers.csv", good);
    await panel.getByRole("button", { name: "Import 1 static code" }).click();
    await expect(panel.getByTestId("import-summary")).toHaveText("Done: 1 static code created.");
    await audit(page, `library-import-done-${width}`);
    await page.close();
  }

  expect(errors, errors.join("\n")).toEqual([]);
});
