// The analytics page shows the same numbers as GET /v1/dynqrcodes/{code}/analytics.
import { expect, test } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { account, logIn, shot } from "./helpers";

test("the analytics page after a known set of scans shows the API's totals", async ({ page, request }) => {
  const user = await account("analytics", "pro", "Ana Lytics");
  const { key } = await generateKey(user.id, "personal");
  const created = await request.post("/v1/dynqrcodes", {
    headers: { "x-api-key": key },
    data: { destination_url: "https://example.com/e2e-analytics", name: "Analysed" },
  });
  const code = (await created.json()).created[0].code as string;
  const agents = [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
  ];
  for (const agent of agents)
    expect((await request.get(`/q/${code}`, { headers: { "user-agent": agent }, maxRedirects: 0 })).status()).toBe(302);
  let api: { total_scans: number; unique_scans: number } = { total_scans: 0, unique_scans: 0 };
  await expect(async () => {
    api = await (await request.get(`/v1/dynqrcodes/${code}/analytics`, { headers: { "x-api-key": key } })).json();
    expect(api.total_scans).toBe(3);
  }).toPass({ timeout: 10_000 });
  expect(api.unique_scans).toBe(2);

  await logIn(page, user.email, `/analytics/${code}`);
  await expect(page.getByTestId("total-scans")).toHaveText(String(api.total_scans));
  await expect(page.getByTestId("unique-scans")).toHaveText(String(api.unique_scans));
  await expect(page.getByRole("heading", { name: "Devices" })).toBeVisible();
  await shot(page, "analytics");

  // The download is the scan export, for the logged-in account.
  const csv = await page.request.get(`/analytics/${code}/scans.csv`);
  expect(csv.status()).toBe(200);
  expect((await csv.text()).trim().split("\r\n")).toHaveLength(4);

  // Another account's code is not found.
  const strangerCode = "NoSuch01";
  const missing = await page.goto(`/analytics/${strangerCode}`);
  expect(missing?.status()).toBe(404);
});
