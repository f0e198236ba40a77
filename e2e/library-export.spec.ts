// The library pages' CSV export: the file the page downloads is the API's export, byte for
// byte (the same rows and the same CSV writer), for /library and the team library on /business.
import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { createDynamicCodes } from "../server/library/dynamicCodes";
import { createStaticCodes } from "../server/library/staticCodes";
import { createTeam, generateBusinessKey } from "../server/teams/teams";
import { account, logIn, shot } from "./helpers";

/** Downloads each export through its link in `library` and compares it with the API's file. */
async function expectApiExports(
  page: Page,
  library: Locator,
  request: APIRequestContext,
  key: string,
  rows: { dynqrcodes: number; qrcodes: number },
) {
  for (const [link, name] of [
    ["Export dynamic codes (CSV)", "dynqrcodes"],
    ["Export static codes (CSV)", "qrcodes"],
  ] as const) {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      library.getByRole("link", { name: link }).click(),
    ]);
    const file = await readFile((await download.path())!, "utf8");
    const api = await request.get(`/v1/${name}/export`, { headers: { "x-api-key": key } });
    expect(api.status()).toBe(200);
    expect(file).toBe(await api.text());
    expect(`attachment; filename="${download.suggestedFilename()}"`).toBe(api.headers()["content-disposition"]);
    // The header line, the rows, and the closing line break.
    expect(file.split("\r\n")).toHaveLength(rows[name] + 2);
  }
}

test("/library and /business download the API's CSV exports of their library", async ({ browser, request }) => {
  const pro = await account("export", "pro", "Ezra Export");
  const personal = { userId: pro.id, library: { kind: "personal" as const, userId: pro.id } };
  await createDynamicCodes(personal, [
    { name: 'Menu, "the big one"', destination_url: "https://example.com/menu?a=1,2" },
    { name: "Wine list", destination_url: "https://example.com/wine" },
  ]);
  await createStaticCodes(personal, [{ name: "=SUM(A1)", url: "https://example.com/static" }]);
  const { key } = await generateKey(pro.id, "personal");
  const page = await browser.newPage();
  await logIn(page, pro.email, "/library");
  const library = page.getByRole("region", { name: "Codes" });
  await expectApiExports(page, library, request, key, { dynqrcodes: 2, qrcodes: 1 });
  await shot(page, "library-export");
  await page.close();

  const owner = await account("export-team", "business", "Tia Team");
  const team = await createTeam(owner.id, "Export Team");
  const teamActor = { userId: owner.id, library: { kind: "team" as const, teamId: team.id }, role: "admin" as const };
  await createDynamicCodes(teamActor, [{ name: "Team poster", destination_url: "https://example.com/poster" }]);
  await createStaticCodes(teamActor, [
    { name: "Team card", url: "https://example.com/card" },
    { name: "Team flyer", url: "https://example.com/flyer" },
  ]);
  const { key: businessKey } = await generateBusinessKey(owner.id);
  const admin = await browser.newPage();
  await logIn(admin, owner.email, "/business");
  await expectApiExports(admin, admin.getByRole("region", { name: "Team library" }), request, businessKey, {
    dynqrcodes: 1,
    qrcodes: 2,
  });
  // Another account's session gets its own library's file, never this one.
  const outsider = await browser.newPage();
  await logIn(outsider, (await account("export-outsider", "free")).email, "/library");
  const stranger = await outsider.request.get("/library/export/qrcodes.csv?scope=team");
  expect(stranger.status()).toBe(403);
  expect(await outsider.request.get("/library/export/users.csv").then((r) => r.status())).toBe(404);
  await admin.close();
  await outsider.close();
});
