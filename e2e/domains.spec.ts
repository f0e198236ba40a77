// Custom domains on the pages (docs/DOMAINS.md): /profile adds one and shows the TXT record to
// create (name and value, copyable); Re-check finds it at the run's DNS server (tests/dns-server.ts)
// once it is there; the create form then offers the domain, the library shows its short URL on
// it; Delete is refused while a code uses it. On /business the team's admin has the same panel.
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createTeam } from "../server/teams/teams";
import { setTxtRecord } from "../tests/dns-server";
import { account, logIn, openSection, shot } from "./helpers";

test("a domain added on /profile, verified with its TXT record, used by a new code, refused deletion while used", async ({
  page,
}) => {
  const user = await account("domains", "pro", "Dom Ain");
  const domain = `go-${randomBytes(4).toString("hex")}.example.com`;
  await logIn(page, user.email, "/profile");
  const panel = page.getByTestId("domains");
  await panel.getByLabel("Domain").fill(domain.toUpperCase());
  await panel.getByRole("button", { name: "Add domain" }).click();
  const row = panel.getByTestId(`domain-${domain}`);
  await expect(row.getByTestId("domain-state")).toHaveText("not verified");
  await expect(row.getByTestId("domain-txt-name")).toHaveText(`_qr-records.${domain}`);
  const value = (await row.getByTestId("domain-txt-value").textContent())!;
  expect(value).toMatch(/^qr-records-verify=[0-9A-Za-z]{32}$/);
  await expect(row.getByRole("button", { name: "Copy value" })).toBeVisible();
  await shot(page, "domains-added");

  await row.getByRole("button", { name: "Re-check" }).click();
  await expect(row.getByTestId("domain-row-error")).toContainText(`TXT record not found: _qr-records.${domain}`);
  await shot(page, "domains-not-found");
  setTxtRecord(`_qr-records.${domain}`, [value]);
  await row.getByRole("button", { name: "Re-check" }).click();
  await expect(row.getByTestId("domain-state")).toHaveText("verified");
  await expect(row.getByTestId("domain-txt-name")).toHaveCount(0);
  await shot(page, "domains-verified");

  // Refused by name: another library's domain, or no domain at all.
  await panel.getByLabel("Domain").fill("203.0.113.9");
  await panel.getByRole("button", { name: "Add domain" }).click();
  await expect(panel.getByTestId("domain-error")).toContainText("not an IP address");

  await page.goto("/library");
  // The import from another service offers the domain too: the create form is the one meant here.
  const create = page.getByRole("region", { name: "Create codes" });
  await create.getByLabel("Name", { exact: true }).fill("Menu");
  await create.getByLabel("Destination URL", { exact: true }).fill("https://example.com/menu");
  await create.getByLabel("Domain", { exact: true }).selectOption(domain);
  await expect(page.getByText(`https://${domain}/menu`)).toBeVisible();
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("item-menu")).toContainText(`https://${domain}/menu`);
  await shot(page, "domains-code-on-domain");

  await page.goto("/profile");
  await page
    .getByTestId(`domain-${domain}`)
    .getByRole("button", { name: `Delete ${domain}` })
    .click();
  await expect(page.getByTestId(`domain-${domain}`).getByTestId("domain-row-error")).toContainText(
    "Domain in use by 1 codes",
  );
  await shot(page, "domains-in-use");
});

test("a team's admin manages its domains on /business", async ({ page }) => {
  const admin = await account("domains-admin", "business", "Ada Admin");
  await createTeam(admin.id, "Domain Team");
  const domain = `team-${randomBytes(4).toString("hex")}.example.com`;
  await logIn(page, admin.email, "/business");
  await openSection(page, "Domains");
  const panel = page.getByTestId("domains");
  await panel.getByLabel("Domain").fill(domain);
  await panel.getByRole("button", { name: "Add domain" }).click();
  await expect(panel.getByTestId(`domain-${domain}`).getByTestId("domain-state")).toHaveText("not verified");
  await panel.getByRole("button", { name: `Delete ${domain}` }).click();
  await expect(panel.getByTestId(`domain-${domain}`)).toHaveCount(0);
  await expect(panel.getByText("No domains yet.")).toBeVisible();
  await shot(page, "domains-business");
});
