// The analytics page's periods (issue 39, point 3), on a server whose clock the test sets
// (CLOCK_OFFSET_SECONDS: 1 April 2026 02:00 UTC, still 31 March in the browser's New York): By
// hour on the default 30 days shows the last 7 days by the hour and stays By hour; each preset
// sets its days in the viewer's zone; the comparison shows the previous period's figures.
import { expect, test, type Page } from "@playwright/test";
import { freePort, startServer, type RunningServer } from "../scripts/harness";
import { generateKey } from "../server/keys/apiKeys";
import { db } from "../server/platform/db";
import { newScan } from "../server/scan/rows";
import { writeScans } from "../server/scan/write";
import { account, logIn, shot, shotAtWidths } from "./helpers";

const NOW = Date.parse("2026-04-01T02:00:00Z");
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
/** Each scan's instant (UTC), with its day in New York where that differs. */
const SCANS = [
  "2026-02-14T12:00:00Z",
  "2026-03-01T03:00:00Z", // 28 February in New York
  "2026-03-01T12:00:00Z",
  "2026-03-05T15:00:00Z",
  "2026-03-20T16:00:00Z",
  "2026-03-20T16:30:00Z",
  "2026-03-25T03:00:00Z", // 24 March in New York
  "2026-03-25T05:00:00Z",
  "2026-03-30T18:10:00Z", // 14:10 in New York
  "2026-03-30T18:20:00Z",
  "2026-03-31T13:00:00Z",
  "2026-04-01T01:00:00Z", // 31 March, 21:00 in New York: today there
];

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

test("By hour moves to the last 7 days, the presets set their days in the viewer's zone, the previous period is compared", async ({
  browser,
  request,
}) => {
  test.setTimeout(360_000);
  let server: RunningServer | undefined;
  try {
    const user = await account("periods", "pro", "Pat Periods");
    const { key } = await generateKey(user.id, "personal");
    const created = await request.post("/v1/dynqrcodes", {
      headers: { "x-api-key": key },
      data: { destination_url: "https://example.com/periods", name: "Periods" },
    });
    const code = (await created.json()).created[0].code as string;
    const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code } });
    await writeScans(
      SCANS.map((at, i) =>
        newScan({
          dynamicCodeId: id,
          scannedAt: Date.parse(at),
          destinationUrl: "https://example.com/periods",
          userAgent: IPHONE,
          address: `198.51.100.${i}`,
          countryHeader: "US",
        }),
      ),
    );

    const context = await browser.newContext({
      timezoneId: "America/New_York",
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    // The session cookie of 127.0.0.1 serves both servers (one database, one secret).
    await logIn(page, user.email, "/library");
    // Started after the log-in, which it would slow down on a loaded machine.
    server = await startServer(
      { CLOCK_OFFSET_SECONDS: String(Math.round((NOW - Date.now()) / 1000)) },
      await freePort(),
    );
    // The browser's zone in the address, as the page puts it there (e2e/analytics-zones.spec.ts).
    await page.goto(`${server.base}/analytics/${code}?tz=America%2FNew_York`);
    // The default 30 days end today in New York (the server's clock), 31 March. A new server's first page is slow.
    await expect(field(page, "From")).toHaveValue("2026-03-02", { timeout: 30_000 });
    await expect(field(page, "To")).toHaveValue("2026-03-31");
    await expect(page.getByTestId("total-scans")).toHaveText("9");
    await expect(page.getByTestId("preset-30d")).toHaveAttribute("aria-current", "true");

    // By hour on the default range: From moves to the last 7 days at once, the menu stays.
    await field(page, "View").selectOption("hour");
    await expect(field(page, "From")).toHaveValue("2026-03-25");
    await expect(page.getByTestId("granularity-note")).toContainText("at most 7 days");
    await shot(page, "analytics-periods-hour-chosen");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/granularity=hour/);
    await expect(page).toHaveURL(/from=2026-03-25/);
    await expect(field(page, "View")).toHaveValue("hour");
    await expect(page.getByTestId("total-scans")).toHaveText("5");
    await expect(page.locator(".error")).toHaveCount(0);
    await page.getByText("Every hour as a table").click();
    await expect(page.locator("details tbody tr")).toHaveCount(7 * 24);
    await expect(page.getByRole("row", { name: /^2026-03-30 14:00 \(-04:00\) 2 / })).toBeVisible();
    await shotAtWidths(page, "analytics-periods-hourly");

    // Each preset: its days in New York, By hour kept where it fits (7 days at most).
    const presets = [
      { id: "today", from: "2026-03-31", to: "2026-03-31", scans: "2", view: "hour" },
      { id: "7d", from: "2026-03-25", to: "2026-03-31", scans: "5", view: "hour" },
      { id: "30d", from: "2026-03-02", to: "2026-03-31", scans: "9", view: "day" },
      { id: "this-month", from: "2026-03-01", to: "2026-03-31", scans: "10", view: "day" },
      { id: "last-month", from: "2026-02-01", to: "2026-02-28", scans: "2", view: "day" },
    ];
    for (const p of presets) {
      await page.getByTestId(`preset-${p.id}`).click();
      await expect(page).toHaveURL(new RegExp(`from=${p.from}&to=${p.to}&`));
      await expect(field(page, "From")).toHaveValue(p.from);
      await expect(field(page, "To")).toHaveValue(p.to);
      await expect(field(page, "View")).toHaveValue(p.view);
      await expect(page.getByTestId("total-scans")).toHaveText(p.scans);
      await expect(page.getByTestId(`preset-${p.id}`)).toHaveAttribute("aria-current", "true");
    }

    // The last 7 days against the 7 before them: 5 scans against 3 (one at 23:00 on 24 March in New York).
    await page.getByTestId("preset-7d").click();
    await expect(field(page, "From")).toHaveValue("2026-03-25");
    await page.getByLabel("Compare with the previous period").check();
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/compare=1/);
    await expect(page.getByTestId("previous-range")).toHaveText("2026-03-18 to 2026-03-24");
    await expect(page.getByTestId("previous-total-scans")).toHaveText("3");
    await expect(page.getByTestId("change-total-scans")).toHaveText("+67%");
    await page.getByText("Every day as a table").click();
    await expect(page.getByRole("row", { name: /^2026-03-30 2 \d+ 2026-03-23 0 0$/ })).toBeVisible();
    await expect(page.getByRole("row", { name: /^2026-03-31 2 \d+ 2026-03-24 1 \d+$/ })).toBeVisible();
    // The presets keep the comparison.
    await expect(page.getByTestId("preset-today")).toHaveAttribute("href", /compare=1/);
    await shotAtWidths(page, "analytics-periods-compare");

    // A By hour address over 30 days (an old link, no script): the server shows its last 7 days and says so.
    await page.goto(`${server.base}/analytics/${code}?tz=America%2FNew_York&granularity=hour`);
    await expect(page.getByTestId("hourly-cut")).toContainText("2026-03-25 to 2026-03-31");
    await expect(field(page, "View")).toHaveValue("hour");
    await expect(page.getByTestId("total-scans")).toHaveText("5");

    // A range the report refuses: the error, and the presets and the View menu to recover with.
    await page.goto(
      `${server.base}/analytics/${code}?tz=America%2FNew_York&from=2026-03-31&to=2026-03-01&granularity=hour`,
    );
    await expect(page.locator(".error")).toHaveText("to must not be before from");
    await expect(page.getByTestId("total-scans")).toHaveCount(0);
    await expect(field(page, "View")).toBeVisible();
    await expect(field(page, "View")).toHaveValue("hour");
    const ranges = page.getByRole("navigation", { name: "Ranges" });
    await expect(ranges.getByRole("link")).toHaveText([
      "Today",
      "Last 7 days",
      "Last 30 days",
      "This month",
      "Last month",
    ]);
    await expect(ranges.locator('[aria-current="true"]')).toHaveCount(0);
    await shot(page, "analytics-periods-refused");
    await page.getByTestId("preset-7d").click();
    await expect(page.locator(".error")).toHaveCount(0);
    await expect(field(page, "From")).toHaveValue("2026-03-25");
    await expect(field(page, "View")).toHaveValue("hour");
    await expect(page.getByTestId("total-scans")).toHaveText("5");
    await context.close();
  } finally {
    await server?.stop();
  }
});
