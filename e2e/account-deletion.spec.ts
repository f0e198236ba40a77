// Delete account on /profile (contract: "Accounts for real"): refused while the account owns a
// team with other members; otherwise, with the typed email and the password, the account goes:
// the browser is logged out, its short link answers 410 and its key 401.
import { expect, test } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { addMember, createTeam } from "../server/teams/teams";
import { account, logIn, PASSWORD, shotAtWidths } from "./helpers";

test("delete an account: its short link answers 410 and its key 401; log-in is refused", async ({
  browser,
  request,
}) => {
  const person = await account("delete-me", "pro", "Dora Delete");
  const { key } = await generateKey(person.id, "personal");
  const created = await request.post("/v1/dynqrcodes", {
    headers: { "x-api-key": key },
    data: { destination_url: "https://example.com/bye", name: "Farewell poster" },
  });
  expect(created.status()).toBe(201);
  const { code } = (await created.json()).created[0];
  expect((await request.get(`/q/${code}`, { maxRedirects: 0 })).status()).toBe(302);

  const page = await (await browser.newContext()).newPage();
  await logIn(page, person.email, "/profile");
  await page.getByRole("button", { name: "Delete account" }).click();
  await page.getByLabel("to confirm").fill("someone-else@test.example");
  await page.getByLabel("Your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Delete account" }).click();
  const error = page.getByTestId("delete-account-error");
  await expect(error).toContainText(`Type your email address (${person.email}) to confirm`);
  await expect(error).toBeFocused();
  await shotAtWidths(page, "delete-account-error");

  await page.getByLabel("to confirm").fill(person.email);
  await expect(error).toHaveCount(0);
  await page.getByRole("button", { name: "Delete account" }).click();
  // Issue 39: it ends on a page that says what happened, not on a bare log-in form.
  await expect(page).toHaveURL(/\/account-deleted$/);
  await expect(page.getByTestId("account-deleted")).toContainText("Your account was deleted");
  await shotAtWidths(page, "delete-account-done");

  expect((await request.get(`/q/${code}`, { maxRedirects: 0 })).status()).toBe(410);
  const refused = await request.get("/v1/dynqrcodes", { headers: { "x-api-key": key } });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({ error: "API key has been revoked" });

  await page.goto("/login");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId("form-error")).toHaveText("Wrong email or password");
});

test("an owner whose team has other members is told to hand the team over first", async ({ browser }) => {
  const owner = await account("delete-owner", "business", "Otto Owner");
  await createTeam(owner.id, "Kept Team");
  const member = await account("delete-member", "free", "Mia Member");
  await addMember(owner.id, member.email, "writer");

  const page = await (await browser.newContext()).newPage();
  await logIn(page, owner.email, "/profile");
  await page.getByRole("button", { name: "Delete account" }).click();
  await page.getByLabel("to confirm").fill(owner.email);
  await page.getByLabel("Your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Delete account" }).click();
  await expect(page.getByTestId("delete-account-error")).toContainText(
    "You own the team “Kept Team”, which has other members: hand it to another admin first",
  );
  await shotAtWidths(page, "delete-account-owner-refused");
  await page.goto("/business");
  await expect(page.getByRole("heading", { name: "Kept Team" })).toBeVisible();
});
