// The personal library on /library: create by hand and by pasted lines (all or nothing),
// search, edit and pause a dynamic code and see /q follow, style it and download both
// images (decoded), copy the short URL, delete with confirmation.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { decodePng } from "../tests/qr-decode";
import { account, logIn, shot } from "./helpers";

test("a Pro account manages its library in the browser", async ({ page, request, context }) => {
  const user = await account("library", "pro", "Libby Rary");
  const { key } = await generateKey(user.id, "personal");
  const api = async (path: string) => (await request.get(path, { headers: { "x-api-key": key } })).json();
  await logIn(page, user.email, "/library");
  await expect(page.getByTestId("library-empty")).toContainText("create your first one");
  await shot(page, "library-empty");

  // One dynamic code and one static code by hand.
  await page.getByLabel("Name", { exact: true }).fill("Lunch menu");
  await page.getByLabel("Destination URL", { exact: true }).fill("https://example.com/lunch");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("page-of")).toContainText("1 code");
  await page.getByLabel("Kind").selectOption("static");
  await page.getByLabel("Name", { exact: true }).fill("Wi-Fi card");
  await page.getByLabel("URL", { exact: true }).fill("https://example.com/wifi");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("page-of")).toContainText("2 codes");
  const [dynamic] = (await api("/v1/dynqrcodes")).dynqrcodes;
  const [stat] = (await api("/v1/qrcodes")).qrcodes;
  expect([dynamic.name, dynamic.destination_url, dynamic.status]).toEqual([
    "Lunch menu",
    "https://example.com/lunch",
    "active",
  ]);
  expect([stat.name, stat.url]).toEqual(["Wi-Fi card", "https://example.com/wifi"]);
  const row = page.getByTestId(`item-${dynamic.code}`);
  await expect(row).toContainText(dynamic.short_url);
  await expect(row.locator(".badge.active")).toHaveText("active");

  // Pasted lines: one bad line → nothing created and the line pointed out; fixed → all created.
  await page.getByRole("button", { name: "Paste many" }).click();
  await page.getByLabel("Kind").selectOption("dynamic");
  await page
    .getByLabel("Lines")
    .fill("Poster A, https://example.com/a\nPoster B, ftp://example.com/b\n\nPoster, C, https://example.com/c");
  await page.getByRole("button", { name: "Create all" }).click();
  await expect(page.getByTestId("library-error")).toContainText(
    "Line 2: Destination URL must be an absolute http or https URL",
  );
  await shot(page, "library-paste-error");
  await expect(page.getByTestId("page-of")).toContainText("2 codes");
  expect((await api("/v1/dynqrcodes")).dynqrcodes).toHaveLength(1);
  await page
    .getByLabel("Lines")
    .fill("Poster A, https://example.com/a\nPoster B, https://example.com/b\n\nPoster, C, https://example.com/c");
  await page.getByRole("button", { name: "Create all" }).click();
  await expect(page.getByTestId("page-of")).toContainText("5 codes");
  const names = (await api("/v1/dynqrcodes")).dynqrcodes.map((d: { name: string }) => d.name).sort();
  expect(names).toEqual(["Lunch menu", "Poster A", "Poster B", "Poster, C"]);

  // Search.
  await page.getByLabel("Search").fill("poster");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("page-of")).toContainText("3 codes");
  await expect(page.getByTestId(`item-${dynamic.code}`)).toHaveCount(0);
  await page.getByLabel("Search").fill("");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("page-of")).toContainText("5 codes");

  // Edit the destination and pause: /q answers 404; active again: /q goes to the new place.
  await row.getByRole("button", { name: "Edit" }).click();
  await row.getByLabel("Destination URL").fill("https://example.com/dinner");
  await row.getByLabel("Status").selectOption("paused");
  await shot(page, "library-edit");
  await row.getByRole("button", { name: "Save", exact: true }).click();
  await expect(row.locator(".badge.paused")).toHaveText("paused");
  expect((await request.get(`/q/${dynamic.code}`, { maxRedirects: 0 })).status()).toBe(404);
  await row.getByRole("button", { name: "Edit" }).click();
  await row.getByLabel("Status").selectOption("active");
  await row.getByRole("button", { name: "Save", exact: true }).click();
  await expect(row.locator(".badge.active")).toHaveText("active");
  const redirect = await request.get(`/q/${dynamic.code}`, { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  expect(redirect.headers()["location"]).toBe("https://example.com/dinner");

  // Copy the short URL with one click.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await row.getByRole("button", { name: "Copy short URL" }).click();
  await expect(row.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(dynamic.short_url);

  // Style: colours too close are refused on the spot; a good style is saved and drawn.
  await row.getByRole("button", { name: "Style" }).click();
  await row.getByLabel("Foreground").fill("#eeeeee");
  await expect(row.getByRole("alert")).toContainText("contrast between colors is too low");
  await expect(row.getByRole("button", { name: "Save style" })).toBeDisabled();
  await row.getByLabel("Foreground").fill("#1a2b3c");
  await row.getByLabel("Background").fill("#fff8e7");
  await row.getByLabel("Error correction").selectOption("H");
  await row.getByLabel("Margin (modules)").fill("2");
  await expect(row.getByTestId("style-preview")).toBeVisible();
  await shot(page, "library-style");
  await row.getByRole("button", { name: "Save style" }).click();
  await expect(row.getByRole("button", { name: "Save style" })).toHaveCount(0);
  const styled = (await api("/v1/dynqrcodes")).dynqrcodes.find((d: { code: string }) => d.code === dynamic.code);
  expect(styled.style).toEqual({ foreground: "#1a2b3c", background: "#fff8e7", error_correction: "H", margin: 2 });

  // Both downloads carry the style and read back as the short URL.
  const [png] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: "Download PNG" }).click(),
  ]);
  expect(png.suggestedFilename()).toBe(`qr-${dynamic.code}.png`);
  expect(decodePng(await readFile((await png.path())!))).toBe(dynamic.short_url);
  const [svg] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: "Download SVG" }).click(),
  ]);
  expect(svg.suggestedFilename()).toBe(`qr-${dynamic.code}.svg`);
  const svgText = await readFile((await svg.path())!, "utf8");
  expect(svgText).toContain('fill="#fff8e7"');
  expect(svgText).toContain('fill="#1a2b3c"');
  // The SVG drawn by the browser, photographed, reads back too.
  const viewer = await context.newPage();
  await viewer.setContent(
    `<body style="margin:0;background:#fff">${svgText.replace(/width="\d+" height="\d+"/, 'width="400" height="400"')}</body>`,
  );
  expect(decodePng(await viewer.locator("svg").screenshot())).toBe(dynamic.short_url);
  await viewer.close();
  await shot(page, "library");

  // Delete with confirmation: dismissed keeps it, accepted removes it.
  const wifi = page.getByTestId(`item-${stat.qr_id}`);
  page.once("dialog", (dialog) => dialog.dismiss());
  await wifi.getByRole("button", { name: "Delete" }).click();
  await expect(wifi).toBeVisible();
  page.once("dialog", (dialog) => dialog.accept());
  await wifi.getByRole("button", { name: "Delete" }).click();
  await expect(wifi).toHaveCount(0);
  await expect(page.getByTestId("page-of")).toContainText("4 codes");
  expect((await api("/v1/qrcodes")).qrcodes).toHaveLength(0);
});
