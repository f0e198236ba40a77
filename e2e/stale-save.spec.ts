// Two tabs editing one code (issue 39, point 5): the second save is refused with a message that
// says what happened, and changes nothing; once reloaded, that tab saves.
import { expect, test } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { account, logIn, shot } from "./helpers";

test("the second of two tabs editing one code is told to reload, and nothing is overwritten", async ({
  page,
  context,
  request,
}) => {
  const user = await account("stale", "pro", "Stale Saver");
  const { key } = await generateKey(user.id, "personal");
  const created = await request.post("/v1/dynqrcodes", {
    headers: { "x-api-key": key },
    data: { destination_url: "https://example.com/menu", name: "Menu" },
  });
  const { code } = (await created.json()).created[0];
  const listed = async () =>
    (
      (await (await request.get("/v1/dynqrcodes", { headers: { "x-api-key": key } })).json()).dynqrcodes as {
        code: string;
        name: string;
        destination_url: string;
      }[]
    ).find((d) => d.code === code)!;

  await logIn(page, user.email, "/library");
  const other = await context.newPage();
  await other.goto("/library");
  const [first, second] = [page.getByTestId(`item-${code}`), other.getByTestId(`item-${code}`)];
  // Both tabs open the code's form before either saves.
  await first.getByRole("button", { name: "Edit" }).click();
  await second.getByRole("button", { name: "Edit" }).click();

  await second.getByLabel("Name").fill("Menu (tab two)");
  await second.getByRole("button", { name: "Save", exact: true }).click();
  await expect(second).toContainText("Menu (tab two)");
  await expect(second.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);

  await first.getByLabel("Destination URL").fill("https://example.com/tab-one");
  await first.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId(`edit-error-${code}`)).toHaveText("This code was changed since you opened it — reload");
  await shot(page, "stale-save-refused");
  expect(await listed()).toMatchObject({ name: "Menu (tab two)", destination_url: "https://example.com/menu" });

  // Reloaded, the form shows the other tab's save and this tab's change goes through.
  await page.reload();
  await first.getByRole("button", { name: "Edit" }).click();
  await expect(first.getByLabel("Name")).toHaveValue("Menu (tab two)");
  await first.getByLabel("Destination URL").fill("https://example.com/tab-one");
  await first.getByRole("button", { name: "Save", exact: true }).click();
  await expect(first.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
  expect(await listed()).toMatchObject({ name: "Menu (tab two)", destination_url: "https://example.com/tab-one" });
});
