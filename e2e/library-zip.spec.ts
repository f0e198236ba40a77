// The library page's ZIP of QR images (issue 20, part 4): tick two codes on /library, download
// one ZIP (PNG, a chosen size), unzip it and decode every entry to its record; then "Select all"
// takes every code of the search.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { createDynamicCodes } from "../server/library/dynamicCodes";
import { shortUrl } from "../server/library/dynamicRecords";
import { createStaticCodes } from "../server/library/staticCodes";
import { decodePng, pngSize } from "../tests/qr-decode";
import { unzip } from "../tests/unzip";
import { account, logIn, shot } from "./helpers";

test("/library: tick two codes, download one ZIP of their PNGs, every entry decodes; select all of a search", async ({
  page,
}) => {
  const pro = await account("zip", "pro", "Zoe Zip");
  const personal = { userId: pro.id, library: { kind: "personal" as const, userId: pro.id } };
  const [menu, wine] = await createStaticCodes(personal, [
    { name: "Menu card", url: "https://example.com/menu" },
    { name: "Wine list", url: "https://example.com/wine", style: { foreground: "#1a2b3c", background: "#fff8e7" } },
  ]);
  const [poster] = await createDynamicCodes(personal, [
    { name: "Menu poster", destination_url: "https://example.com/poster" },
  ]);
  await logIn(page, pro.email, "/library");
  const library = page.getByRole("region", { name: "Codes" });

  await library.getByRole("checkbox", { name: "Include Wine list in the ZIP" }).check();
  await library.getByRole("checkbox", { name: "Include Menu poster in the ZIP" }).check();
  await library.getByLabel("Format").selectOption("png");
  await library.getByLabel("Size (px)").fill("256");
  await shot(page, "library-zip");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    library.getByRole("link", { name: "Download ZIP (2 codes)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^library-png-\d{4}-\d{2}-\d{2}\.zip$/);
  const entries = await unzip(await readFile((await download.path())!));
  expect(entries.map((e) => e.name).sort()).toEqual(
    [`${wine.qr_id}-wine-list.png`, `${poster.code}-menu-poster.png`].sort(),
  );
  const decoded = Object.fromEntries(entries.map((e) => [e.name, decodePng(e.data)]));
  expect(decoded).toEqual({
    [`${wine.qr_id}-wine-list.png`]: wine.url,
    [`${poster.code}-menu-poster.png`]: shortUrl(poster.code, ""),
  });
  for (const entry of entries) expect(pngSize(entry.data)).toEqual({ width: 256, height: 256 });

  // Every code of a search, beyond the ticked ones.
  await library.getByLabel("Search", { exact: true }).fill("menu");
  await library.getByRole("button", { name: "Search" }).click();
  await expect(library.getByTestId("page-of")).toContainText("2 codes");
  await library.getByRole("checkbox", { name: /^Select all 2 codes matching “menu”/ }).check();
  await expect(library.getByRole("checkbox", { name: "Include Menu card in the ZIP" })).toBeChecked();
  const [all] = await Promise.all([
    page.waitForEvent("download"),
    library.getByRole("link", { name: "Download ZIP (2 codes)" }).click(),
  ]);
  const searched = await unzip(await readFile((await all.path())!));
  expect(searched.map((e) => e.name).sort()).toEqual(
    [`${menu.qr_id}-menu-card.png`, `${poster.code}-menu-poster.png`].sort(),
  );
  expect(searched.map((e) => decodePng(e.data)).sort()).toEqual([menu.url, shortUrl(poster.code, "")].sort());
  await shot(page, "library-zip-search");
});
