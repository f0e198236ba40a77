// The analytics pages in the browser's time zone (Playwright's timezoneId): the zone is put into
// the address and named on the page, the figures are the API's for that zone, the selector
// changes it, the hourly view lists every local hour, the CSV is named after the zone, and the
// live panel counts a new scan without a reload.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { db } from "../server/platform/db";
import { newScan } from "../server/scan/rows";
import { writeScans } from "../server/scan/write";
import { account, logIn, shotAtWidths } from "./helpers";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
// Around Kolkata's midnight (18:30 UTC) and New York's 23-hour 8 March 2026.
const INSTANTS = [
  "2026-03-07T18:20:00Z",
  "2026-03-07T18:40:00Z",
  "2026-03-08T04:59:00Z",
  "2026-03-08T05:01:00Z",
  "2026-03-08T06:59:00Z",
  "2026-03-08T07:01:00Z",
  "2026-03-08T12:00:00Z",
  "2026-03-09T03:00:00Z",
  "2026-03-09T20:00:00Z",
];

type Report = {
  total_scans: number;
  unique_scans: number;
  tz: string;
  daily?: { date: string; scans: number }[];
  hourly?: { hour: string; scans: number }[];
};
const apiReport = async (request: APIRequestContext, key: string, code: string, query: string) =>
  (await (
    await request.get(`/v1/dynqrcodes/${code}/analytics?${query}`, { headers: { "x-api-key": key } })
  ).json()) as Report;

test("the analytics pages follow the browser's time zone, and show the API's figures for it", async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const user = await account("zones", "pro", "Zoe Zones");
  const { key } = await generateKey(user.id, "personal");
  const created = await request.post("/v1/dynqrcodes", {
    headers: { "x-api-key": key },
    data: { destination_url: "https://example.com/zones", name: "Zoned" },
  });
  const code = (await created.json()).created[0].code as string;
  const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code } });
  await writeScans(
    INSTANTS.map((at, i) =>
      newScan({
        dynamicCodeId: id,
        scannedAt: Date.parse(at),
        destinationUrl: "https://example.com/zones",
        userAgent: IPHONE,
        address: `198.51.100.${i % 3}`,
        countryHeader: ["IN", "US"][i % 2],
      }),
    ),
  );

  const context = await browser.newContext({ timezoneId: "Asia/Kolkata", viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const range = "from=2026-03-07&to=2026-03-09";
  await logIn(page, user.email, `/analytics/${code}?${range}`);
  // The browser's zone, as its runtime spells it (Chromium: Asia/Calcutta), goes into the address.
  const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  await expect(page).toHaveURL(new RegExp(`tz=${encodeURIComponent(browserZone)}`));
  await expect(page.getByTestId("time-zone")).toHaveText(browserZone);
  const kolkata = await apiReport(request, key, code, `${range}&tz=${browserZone}`);
  await expect(page.getByTestId("total-scans")).toHaveText(String(kolkata.total_scans));
  await expect(page.getByTestId("unique-scans")).toHaveText(String(kolkata.unique_scans));
  // Kolkata's 7 March ends at 18:30 UTC: one scan before it; the last scan is on 10 March there.
  expect(kolkata.daily!.map((d) => d.scans)).toEqual([1, 6, 1]);
  await page.getByText("Every day as a table").click();
  for (const d of kolkata.daily!)
    await expect(page.getByRole("row", { name: new RegExp(`^${d.date} ${d.scans} `) })).toBeVisible();
  await shotAtWidths(page, "analytics-zone-kolkata");

  // The CSV is named after the zone and has each scan's local time.
  const href = await page.getByRole("link", { name: "Download scans (CSV)" }).getAttribute("href");
  const csv = await page.request.get(href!);
  expect(csv.headers()["content-disposition"]).toContain(`scans-${code}-${browserZone.replace("/", "_")}-`);
  expect((await csv.text()).split("\r\n")[0]).toBe(
    "scanned_at,scanned_at_local,country,device,os,browser,unique,destination",
  );

  // Another zone from the selector, by the hour: New York's 8 March has 23 hours.
  await page.goto(`/analytics/${code}?from=2026-03-08&to=2026-03-08&tz=${browserZone}`);
  await page.getByLabel("Time zone", { exact: true }).selectOption("America/New_York");
  await page.getByLabel("View", { exact: true }).selectOption("hour");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/tz=America%2FNew_York/);
  await expect(page.getByTestId("time-zone")).toHaveText("America/New_York");
  const newYork = await apiReport(
    request,
    key,
    code,
    "from=2026-03-08&to=2026-03-08&tz=America/New_York&granularity=hour",
  );
  expect(newYork.hourly).toHaveLength(23);
  await expect(page.getByTestId("total-scans")).toHaveText(String(newYork.total_scans));
  await page.getByText("Every hour as a table").click();
  await expect(page.locator("details tbody tr")).toHaveCount(23);
  await expect(page.getByRole("row", { name: /^2026-03-08 03:00 \(-04:00\) 1 / })).toBeVisible();
  await shotAtWidths(page, "analytics-zone-hourly");

  // The live panel counts a scan made now, without a reload.
  await expect(page.getByTestId("live-scans")).toHaveText("0");
  expect((await request.get(`/q/${code}`, { headers: { "user-agent": IPHONE }, maxRedirects: 0 })).status()).toBe(302);
  await expect(page.getByTestId("live-scans")).toHaveText("1", { timeout: 20_000 });

  // The summary page in the browser's zone, then in Tokyo.
  await page.goto("/analytics");
  await expect(page).toHaveURL(new RegExp(`/analytics\\?tz=${encodeURIComponent(browserZone)}`));
  await expect(page.getByTestId("time-zone")).toHaveText(browserZone);
  await page.getByLabel("Time zone", { exact: true }).selectOption("Asia/Tokyo");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByTestId("time-zone")).toHaveText("Asia/Tokyo");
  await shotAtWidths(page, "analytics-zone-summary");
  await context.close();
});
