// Webhook endpoints on the pages: /profile (personal library) and /business (an admin's team
// library), against a real receiver on loopback (the test server allows private networks):
// add (secret shown once, verified against a real delivery), send a test event, the delivery
// log with status, latency and the answer's first 1 KiB, Resend, edit, disable, delete.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { createTeam } from "../server/teams/teams";
import { account, logIn, shot } from "./helpers";

type Hit = { path: string; headers: Record<string, string>; body: string };

async function receiver() {
  const hits: Hit[] = [];
  const failing = new Set<string>();
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      hits.push({ path: req.url ?? "", headers: req.headers as Record<string, string>, body });
      if (failing.has(req.url ?? ""))
        res.writeHead(500, { "content-type": "text/plain" }).end("receiver says: database locked");
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    failing,
    close: () => new Promise((r) => server.close(r)),
  };
}

for (const [width, viewport] of Object.entries({
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
})) {
  test(`/profile: add an endpoint, test it, read the delivery log, resend, edit, disable and delete (${width})`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const hooks = await receiver();
    const owner = await account(`hooks-${width}`, "pro");
    const page = await browser.newPage({ viewport });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await logIn(page, owner.email, "/profile");
    const panel = page.getByTestId("webhooks");
    await expect(panel.getByText("No endpoints yet.")).toBeVisible();

    // A bad address: the contract's error at the form, nothing stored.
    await panel.getByLabel("Endpoint URL").fill("ftp://example.com/hook");
    await panel.getByRole("button", { name: "Add endpoint" }).click();
    await expect(panel.getByTestId("webhook-error")).toHaveText("URL must be a public https URL");
    await expect(panel.getByText("No endpoints yet.")).toBeVisible();

    await panel.getByLabel("Endpoint URL").fill(`${hooks.base}/profile`);
    await panel.getByLabel("Description").fill("Order system");
    await panel.getByRole("checkbox", { name: "qrcode.created", exact: true }).check();
    await panel.getByRole("button", { name: "Add endpoint" }).click();
    const secret = panel.getByTestId("webhook-secret");
    await expect(secret).toHaveText(/^whsec_/);
    const shownSecret = (await secret.textContent())!;
    await panel.getByRole("button", { name: "Copy secret" }).click();
    await expect(panel.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shownSecret);

    const row = panel.getByTestId(`webhook-${hooks.base}/profile`);
    await expect(row.getByTestId("webhook-state")).toHaveText("Enabled");
    await row.getByRole("button", { name: "Send test event" }).click();
    await expect(row.getByTestId("webhook-test-sent")).toBeVisible();
    await expect.poll(() => hooks.hits.length).toBe(1);
    const hit = hooks.hits[0];
    expect(JSON.parse(hit.body).type).toBe("webhook.test");
    new Webhook(shownSecret).verify(hit.body, {
      "webhook-id": hit.headers["webhook-id"],
      "webhook-timestamp": hit.headers["webhook-timestamp"],
      "webhook-signature": hit.headers["webhook-signature"],
    });

    await row.getByRole("button", { name: "Deliveries" }).click();
    const log = row.getByTestId("delivery-log");
    await expect(log.getByTestId("delivery-status").first()).toHaveText("delivered");
    await expect(log.getByTestId("delivery-response-status").first()).toHaveText("204");
    await expect(log.getByTestId("delivery").first()).toContainText(/\d+ ms/);

    // A failing receiver: its status and the first of its answer in the log; then Resend once it is well.
    hooks.failing.add("/profile");
    await row.getByRole("button", { name: "Send test event" }).click();
    await expect(log.getByTestId("delivery-response-status").first()).toHaveText("500", { timeout: 15_000 });
    await log.getByText("First 1 KiB").first().click();
    await expect(log.getByText("receiver says: database locked").first()).toBeVisible();
    await shot(page, `webhooks-profile-log-${width}`);
    hooks.failing.delete("/profile");
    const before = hooks.hits.length;
    await log.getByRole("button", { name: "Resend" }).first().click();
    await expect.poll(() => hooks.hits.length, { timeout: 15_000 }).toBeGreaterThan(before);
    // The two deliveries and the resent one (newest first); the failed one may meanwhile succeed on its own retry.
    await expect(log.getByTestId("delivery")).toHaveCount(3, { timeout: 15_000 });
    await expect(log.getByTestId("delivery-status").first()).toHaveText("delivered");

    await row.getByRole("button", { name: "Edit" }).click();
    await row.getByLabel("Description").fill("Order system (v2)");
    await row.getByRole("checkbox", { name: "scan.created", exact: true }).check();
    await row.getByRole("button", { name: "Save endpoint" }).click();
    await expect(row.getByText("Order system (v2)")).toBeVisible();
    await expect(row).toContainText("scan.created");

    await row.getByRole("button", { name: "Disable" }).click();
    await expect(row.getByTestId("webhook-state")).toHaveText("Disabled");
    await expect(row.getByRole("button", { name: "Send test event" })).toBeDisabled();
    await shot(page, `webhooks-profile-${width}`);
    await row.getByRole("button", { name: "Enable" }).click();
    await expect(row.getByTestId("webhook-state")).toHaveText("Enabled");

    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Delete" }).click();
    await expect(panel.getByText("No endpoints yet.")).toBeVisible();
    await page.close();
    await hooks.close();
  });
}

test("/business: the team's endpoints for its admin only", async ({ browser }) => {
  const hooks = await receiver();
  const admin = await account("hooks-admin", "business", "Hook Admin");
  await createTeam(admin.id, "Hook Team");
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await logIn(page, admin.email, "/business?section=webhooks");
  const panel = page.getByTestId("webhooks");
  await panel.getByLabel("Endpoint URL").fill(`${hooks.base}/team`);
  await panel.getByRole("checkbox", { name: "draft.approved", exact: true }).check();
  await panel.getByRole("button", { name: "Add endpoint" }).click();
  await expect(panel.getByTestId("webhook-secret")).toBeVisible();
  const row = panel.getByTestId(`webhook-${hooks.base}/team`);
  await row.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => hooks.hits.filter((h) => h.path === "/team").length).toBe(1);
  await row.getByRole("button", { name: "Deliveries" }).click();
  await expect(row.getByTestId("delivery-status").first()).toHaveText("delivered");
  await shot(page, "webhooks-business");
  await page.close();
  await hooks.close();
});
