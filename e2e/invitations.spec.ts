// Team invitations and the ownership hand-over on /business (contract: "Accounts for real"):
// a new address signs up from the mailed link and joins with the invited role; an existing
// account logs in from it and accepts; a cancelled link is refused; the owner hands the team
// to another admin. The mails are read from the tests' SMTP server.
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { addMember, createTeam, generateBusinessKey } from "../server/teams/teams";
import { linkIn, waitForMail } from "../tests/mail-sink";
import { account, logIn, PASSWORD, shotAtWidths } from "./helpers";

async function invite(admin: Page, email: string, role: "admin" | "writer" | "viewer") {
  await admin.getByLabel("Email", { exact: true }).fill(email);
  await admin.getByLabel("Role", { exact: true }).selectOption(role);
  await admin.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(admin.getByTestId("invitation-sent")).toContainText(email);
  await expect(admin.getByTestId(`invitation-${email}`)).toContainText(role);
  return linkIn(await waitForMail(email, /Join the team/), "/invite/");
}

test("invite a new address: it signs up from the link and joins with the invited role", async ({ browser }) => {
  const owner = await account("inv-owner", "business", "Olga Owner");
  await createTeam(owner.id, "Invitation Team");
  const admin = await (await browser.newContext()).newPage();
  await logIn(admin, owner.email, "/business?section=members");
  const newcomer = `newcomer-${randomUUID()}@test.example`;
  const link = await invite(admin, newcomer, "viewer");
  await shotAtWidths(admin, "invitation-sent");

  const invitee = await (await browser.newContext()).newPage();
  await invitee.goto(link.pathname);
  await expect(invitee.getByRole("heading", { name: "Join “Invitation Team”" })).toBeVisible();
  await expect(invitee.getByTestId("invitation-role")).toHaveText("a viewer");
  await shotAtWidths(invitee, "invitation-logged-out");
  await invitee.getByRole("main").getByRole("link", { name: "Sign up" }).click();
  await expect(invitee.getByLabel("Email")).toHaveValue(newcomer);
  await invitee.getByLabel("Password").fill(PASSWORD);
  await invitee.getByLabel("Name").fill("Nina Newcomer");
  await shotAtWidths(invitee, "invitation-signup");
  await invitee.getByRole("button", { name: "Create account" }).click();
  await expect(invitee).toHaveURL(new RegExp(`${link.pathname}$`));
  await shotAtWidths(invitee, "invitation-accept");
  await invitee.getByRole("button", { name: "Accept invitation" }).click();
  await expect(invitee).toHaveURL(/\/business$/);
  await expect(invitee.getByTestId("team-role")).toHaveText("viewer");
  await shotAtWidths(invitee, "invitation-joined");

  await admin.reload();
  await expect(admin.getByTestId(`member-${newcomer}`)).toContainText("Nina Newcomer");
  await expect(admin.getByLabel(`Role of ${newcomer}`)).toHaveValue("viewer");
  await expect(admin.getByTestId("no-invitations")).toBeVisible();
});

test("invite an existing account: it logs in from the link and accepts; a cancelled invitation's link is refused", async ({
  browser,
}) => {
  const owner = await account("inv2-owner", "business", "Omar Owner");
  await createTeam(owner.id, "Second Team");
  const existing = await account("inv2-member", "free", "Ethel Existing");
  const admin = await (await browser.newContext()).newPage();
  await logIn(admin, owner.email, "/business?section=members");
  const link = await invite(admin, existing.email, "writer");

  const invitee = await (await browser.newContext()).newPage();
  await invitee.goto(link.pathname);
  await invitee.getByRole("main").getByRole("link", { name: "Log in" }).click();
  await expect(invitee.getByLabel("Email")).toHaveValue(existing.email);
  await invitee.getByLabel("Password").fill(PASSWORD);
  await invitee.getByRole("button", { name: "Log in" }).click();
  await expect(invitee).toHaveURL(new RegExp(`${link.pathname}$`));
  await invitee.getByRole("button", { name: "Accept invitation" }).click();
  await expect(invitee.getByTestId("team-role")).toHaveText("writer");

  // Cancelled: the row goes, and the link says so.
  const cancelled = `cancelled-${randomUUID()}@test.example`;
  const cancelledLink = await invite(admin, cancelled, "writer");
  await shotAtWidths(admin, "invitation-pending");
  admin.once("dialog", (dialog) => dialog.accept());
  await admin.getByTestId(`invitation-${cancelled}`).getByRole("button", { name: "Cancel" }).click();
  await expect(admin.getByTestId(`invitation-${cancelled}`)).toHaveCount(0);
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto(cancelledLink.pathname);
  await expect(stranger.getByRole("heading", { name: "Invitation refused" })).toBeVisible();
  await expect(stranger.getByTestId("invitation-refused")).toContainText(
    "This invitation was cancelled by the team's admin",
  );
  await shotAtWidths(stranger, "invitation-cancelled");
});

test("the owner hands the team to another admin (Make owner); the team's key keeps working with a Business owner", async ({
  browser,
  request,
}) => {
  const owner = await account("own-owner", "business", "Oscar Owner");
  await createTeam(owner.id, "Hand-over Team");
  const next = await account("own-next", "business", "Nora Next");
  await addMember(owner.id, next.email, "admin");
  const writer = await account("own-writer", "free", "Walt Writer");
  await addMember(owner.id, writer.email, "writer");
  const { key } = await generateBusinessKey(writer.id);

  const page = await (await browser.newContext()).newPage();
  await logIn(page, owner.email, "/business?section=members");
  // Only another admin's row offers it.
  await expect(page.getByTestId(`member-${writer.email}`).getByRole("button", { name: "Make owner" })).toHaveCount(0);
  await expect(page.getByTestId(`member-${owner.email}`).getByRole("button", { name: "Make owner" })).toHaveCount(0);
  await shotAtWidths(page, "make-owner-before");
  let asked = "";
  page.once("dialog", (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await page.getByTestId(`member-${next.email}`).getByRole("button", { name: "Make owner" }).click();
  const ownerBadge = (email: string) => page.getByTestId(`member-${email}`).getByText("owner", { exact: true });
  await expect(ownerBadge(next.email)).toHaveCount(1);
  await expect(ownerBadge(owner.email)).toHaveCount(0);
  expect(asked).toContain(`Make ${next.email} the team's owner?`);
  // No longer the owner: no more hand-over buttons.
  await expect(page.getByRole("button", { name: "Make owner" })).toHaveCount(0);
  await shotAtWidths(page, "make-owner-after");
  expect((await request.get("/v1/dynqrcodes", { headers: { "x-api-key": key } })).status()).toBe(200);
});
