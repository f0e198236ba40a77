// "Import from another service" on /library (issue 43): a Shlink export of 120 links, written
// from Shlink's documented format (tests/fixtures/import-from), is read in the browser; its bad
// rows are listed by line while the good links are imported, each keeping its back-half and
// redirecting; the same file chosen again creates nothing. And onto a verified domain of the
// library chosen on the form (the command line's --domain): `https://<domain>/<back-half>` answers.
// Screenshots and WCAG 2 AA errors.
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { db } from "../server/platform/db";
import { generateExport } from "../tests/fixtures/import-from/exports";
import { accessibilityErrors, account, logIn, shot, shotAtWidths } from "./helpers";

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

/** GET `path` on the server with another Host, as a proxy passes a custom domain's: status and Location. */
function onHost(base: string, host: string, path: string) {
  const url = new URL(base);
  return new Promise<[number, string | undefined]>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers: { host } }, (res) => {
      res.resume();
      res.on("end", () => resolve([res.statusCode!, res.headers.location]));
    });
    req.on("error", reject);
    req.end();
  });
}

test("a Dub export onto the library's verified domain: each link keeps its back-half there", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const fixture = generateExport("dub", `e2d${randomBytes(3).toString("hex")}`, 40);
  const kept = fixture.kept.length;
  const user = await account("import-from-domain", "pro", "Dom Porter");
  // The domain verified before the move, as README "Moving in" says (the DNS check is domains.spec's).
  const domain = `go-${randomBytes(4).toString("hex")}.example.com`;
  await db.domain.create({
    data: { domain, library: `user:${user.id}`, token: "e2e", verifiedAt: new Date(), createdAt: new Date() },
  });
  await logIn(page, user.email, "/library");
  const panel = page.getByTestId("service-import-personal");
  await panel.getByLabel("Service").selectOption({ label: "Dub" });
  await panel.getByLabel("Domain").selectOption(domain);
  await expect(panel).toContainText(`Each link keeps its back-half on ${domain}: https://${domain}/<back-half>.`);
  await panel
    .getByLabel("Export file")
    .setInputFiles({ name: "links.csv", mimeType: "text/csv", buffer: Buffer.from(fixture.text) });
  await expect(panel.getByTestId("service-import-ready")).toContainText(`links.csv (Dub): ${kept} links to import`);
  await shot(page, "library-import-from-domain");
  expect(await accessibilityErrors(page)).toEqual([]);
  await panel.getByRole("button", { name: `Import ${kept} links` }).click();
  await expect(panel.getByTestId("service-import-summary")).toHaveText(`Done: ${kept} codes created.`, {
    timeout: 60_000,
  });

  const codes = await db.dynamicCode.findMany({ where: { userId: user.id, deletedAt: null } });
  expect(codes.map((c) => [c.code, c.domain]).sort()).toEqual(fixture.kept.map((k) => [k.code, domain]).sort());
  const sample = fixture.kept[5];
  expect(await onHost(baseURL!, domain, `/${sample.code}`)).toEqual([302, sample.destination]);
  expect((await onHost(baseURL!, domain, `/q/${sample.code}`))[0]).toBe(404);
});
