// "Import from another service" on /library (issue 43): a Shlink export of 120 links, written
// from Shlink's documented format (tests/fixtures/import-from), is read in the browser; its bad
// rows are listed by line while the good links are imported, each keeping its back-half and
// redirecting; the same file chosen again creates nothing. Screenshots and WCAG 2 AA errors.
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { db } from "../server/platform/db";
import { generateExport } from "../tests/fixtures/import-from/exports";
import { accessibilityErrors, account, logIn, shotAtWidths } from "./helpers";

test("a Shlink export: good links imported with their back-halves, bad rows listed, nothing twice", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const fixture = generateExport("shlink", `e2e${randomBytes(3).toString("hex")}`, 120);
  const kept = fixture.kept.length;
  const user = await account("import-from", "pro", "Ima Porter");
  await logIn(page, user.email, "/library");
  const panel = page.getByTestId("service-import-personal");
  await expect(panel.getByRole("heading", { name: "Import from another service" })).toBeVisible();

  await panel.getByLabel("Service").selectOption({ label: "Shlink" });
  await expect(panel).toContainText("The file: web client, Short URLs, Export (short_urls.csv).");
  const choose = () =>
    panel
      .getByLabel("Export file")
      .setInputFiles({ name: "short_urls.csv", mimeType: "text/csv", buffer: Buffer.from(fixture.text) });
  await choose();
  const ready = panel.getByTestId("service-import-ready");
  await expect(ready).toContainText(
    `short_urls.csv (Shlink): ${kept} links to import, ${fixture.refused.length} refused (below).`,
  );
  const problems = panel.getByTestId("service-import-problems").locator("li");
  await expect(problems).toHaveCount(fixture.refused.length);
  await expect(problems.first()).toHaveText(`Line ${fixture.refused[0].line}: no destination URL`);
  const reserved = fixture.refused.find((r) => r.kind === "reserved")!;
  await expect(problems.filter({ hasText: `Line ${reserved.line}:` })).toContainText("export is reserved");
  await shotAtWidths(page, "library-import-from-ready");
  expect(await accessibilityErrors(page)).toEqual([]);

  await panel.getByRole("button", { name: `Import ${kept} links` }).click();
  await expect(panel.getByTestId("service-import-summary")).toHaveText(`Done: ${kept} codes created.`, {
    timeout: 60_000,
  });
  await expect(panel.getByTestId("service-import-progress")).toHaveJSProperty("value", kept);
  await shotAtWidths(page, "library-import-from-done");
  expect(await accessibilityErrors(page)).toEqual([]);

  const codes = await db.dynamicCode.findMany({ where: { userId: user.id, deletedAt: null } });
  expect(codes.map((c) => c.code).sort()).toEqual(fixture.kept.map((k) => k.code).sort());
  const sample = fixture.kept[7];
  const made = codes.find((c) => c.code === sample.code)!;
  expect([made.destinationUrl, JSON.parse(made.metadata!).clicks_before]).toEqual([
    sample.destination,
    String(sample.clicks),
  ]);
  const redirect = await request.get(`/q/${sample.code}`, { maxRedirects: 0 });
  expect([redirect.status(), redirect.headers().location]).toEqual([302, sample.destination]);

  // The same file again: every link recognised as imported before, none to create.
  await choose();
  await expect(ready).toContainText(
    `short_urls.csv (Shlink): 0 links to import, ${kept} imported before, ${fixture.refused.length} refused (below).`,
  );
  await expect(panel.getByRole("button", { name: /^Import/ })).toHaveCount(0);
  expect(await db.dynamicCode.count({ where: { userId: user.id, deletedAt: null } })).toBe(kept);
});
