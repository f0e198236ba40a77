// A Business team on /business: the admin invites a writer, who accepts from the mail; the writer's business key creates a
// draft; the admin sees the key and the draft, approves it, and revokes the writer's key.
import { expect, test } from "@playwright/test";
import { linkIn, waitForMail } from "../tests/mail-sink";
import { account, logIn, openSection, shot } from "./helpers";

test("admin invites a writer, reviews the writer's draft, and revokes the writer's key", async ({
  browser,
  request,
}) => {
  const { email: adminEmail } = await account("admin", "business", "Ada Admin");
  const { email: writerEmail } = await account("writer", "free", "Wes Writer");

  const admin = await (await browser.newContext()).newPage();
  await logIn(admin, adminEmail, "/business");
  await admin.getByLabel("Team name").fill("E2E Team");
  await admin.getByRole("button", { name: "Create team" }).click();
  await expect(admin.getByRole("heading", { name: "E2E Team" })).toBeVisible();
  await openSection(admin, "Members");
  await admin.getByLabel("Email").fill(writerEmail);
  await admin.getByLabel("Role", { exact: true }).selectOption("writer");
  await admin.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(admin.getByTestId(`invitation-${writerEmail}`)).toContainText("writer");

  // The writer accepts from the mailed link.
  const link = linkIn(await waitForMail(writerEmail, /Join the team/), "/invite/");
  const writer = await (await browser.newContext()).newPage();
  await logIn(writer, writerEmail, link.pathname);
  await writer.getByRole("button", { name: "Accept invitation" }).click();
  await expect(writer).toHaveURL(/\/business$/);
  await expect(writer.getByTestId("team-role")).toHaveText("writer");
  await admin.reload();
  await expect(admin.getByTestId(`member-${writerEmail}`)).toContainText("Wes Writer");
  await shot(admin, "business-admin-members");
  await openSection(writer, "Keys");
  await writer.getByRole("button", { name: "Generate business key" }).click();
  const shown = writer.getByTestId("new-api-key");
  await expect(shown).toHaveText(/^qrb_[0-9A-Za-z]{40}$/);
  const key = (await shown.textContent())!.trim();
  await shot(writer, "business-writer-key");

  const created = await request.post("/v1/dynqrcodes", {
    headers: { "x-api-key": key },
    data: { destination_url: "https://example.com/e2e-team", name: "Team poster" },
  });
  expect(created.status()).toBe(201);
  const record = (await created.json()).created[0];
  expect(record.status).toBe("draft");
  expect((await request.get(`/q/${record.code}`, { maxRedirects: 0 })).status()).toBe(404);

  await admin.goto("/business?section=keys");
  const keyRow = admin.getByTestId(`team-key-${writerEmail}`);
  await expect(keyRow).toContainText(`${key.slice(0, 8)}…${key.slice(-4)}`);
  await openSection(admin, "Review");
  const draft = admin.getByTestId(`draft-${record.code}`);
  await expect(draft).toContainText("Team poster");
  await expect(draft).toContainText(writerEmail);
  await shot(admin, "business-admin-review");
  await draft.getByRole("button", { name: "Approve" }).click();
  await expect(admin.getByTestId("no-drafts")).toBeVisible();
  await openSection(admin, "Library");
  await expect(admin.getByTestId(`item-${record.code}`)).toContainText("active");
  const live = await request.get(`/q/${record.code}`, { maxRedirects: 0 });
  expect(live.status()).toBe(302);
  expect(live.headers()["location"]).toBe("https://example.com/e2e-team");

  await openSection(admin, "Keys");
  admin.once("dialog", (dialog) => dialog.accept());
  await keyRow.getByRole("button", { name: "Revoke" }).click();
  await expect(keyRow).toHaveCount(0);
  await shot(admin, "business-admin-revoked");

  const refused = await request.get("/v1/dynqrcodes", { headers: { "x-api-key": key } });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({ error: "API key has been revoked" });

  // The writer's page no longer shows a key.
  await writer.reload();
  await expect(writer.getByTestId("api-key-display")).toHaveCount(0);
  await shot(writer, "business-writer-after");
});
