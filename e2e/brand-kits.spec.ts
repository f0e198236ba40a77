// Brand kits on the pages (docs/STYLE-PRESETS.md): a design made in a code's style editor is
// saved as a kit, listed on /profile with its colours, picked in the create form (the new code
// gets the kit's style) and offered to start another design from; deleting the kit leaves the
// code as it was. On /business the team's admin has the same panel.
import { expect, test } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { createTeam } from "../server/teams/teams";
import { createPreset } from "../server/stylePresets/stylePresets";
import { account, logIn, openSection, shot } from "./helpers";

test("a design saved as a kit from the style editor, listed on /profile, applied by the create form", async ({
  page,
  request,
}) => {
  const user = await account("kits", "pro", "Kit Maker");
  const { key } = await generateKey(user.id, "personal");
  const headers = { "x-api-key": key };
  const created = await (
    await request.post("/v1/dynqrcodes", {
      headers,
      data: { destination_url: "https://example.com/p", name: "Poster" },
    })
  ).json();
  const code: string = created.created[0].code;
  await logIn(page, user.email, "/library");
  const row = page.getByTestId(`item-${code}`);
  await row.getByRole("button", { name: "Style" }).click();
  await row.getByLabel("Foreground").fill("#0b3d91");
  await row.getByLabel("Module shape").selectOption("rounded");
  await row.getByLabel("Frame text").fill("Scan me");
  await expect(row.getByTestId(`style-check-${code}`)).toHaveText("This design scans");
  await row.getByLabel("Save this design as a brand kit").fill("Brand blue");
  await row.getByRole("button", { name: "Save as brand kit" }).click();
  await expect(row.getByTestId(`style-${code}-kit-saved`)).toHaveText("Saved as brand kit “Brand blue”.");
  await shot(page, "brand-kits-saved-from-editor");
  // The same name again: the API's refusal, shown at the field.
  await row.getByLabel("Save this design as a brand kit").fill("Brand blue");
  await row.getByRole("button", { name: "Save as brand kit" }).click();
  await expect(row.getByTestId(`style-${code}-kit-error`)).toContainText("Style preset already exists: Brand blue");
  await row.getByRole("button", { name: "Cancel" }).click();

  await page.goto("/profile");
  const panel = page.getByTestId("brand-kits");
  await expect(panel.getByTestId("kit-Brand blue")).toContainText(
    "#0b3d91 on #ffffff, rounded modules, frame “Scan me”",
  );
  await shot(page, "brand-kits-profile");

  await page.goto("/library");
  await page.getByLabel("Name", { exact: true }).fill("Kit code");
  await page.getByLabel("Destination URL", { exact: true }).fill("https://example.com/kit");
  await page.getByLabel("Brand kit", { exact: true }).selectOption("Brand blue");
  await shot(page, "brand-kits-create-form");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("item-kit-code")).toBeVisible();
  const list = (await (await request.get("/v1/dynqrcodes", { headers })).json()) as {
    dynqrcodes: { name: string; style: Record<string, unknown> }[];
  };
  const kitCode = list.dynqrcodes.find((d) => d.name === "Kit code")!;
  expect(kitCode.style).toMatchObject({ foreground: "#0b3d91", module_shape: "rounded", frame: { text: "Scan me" } });

  // Another code's editor starts from the kit.
  await page.getByTestId(`item-${code}`).getByRole("button", { name: "Style" }).click();
  await page.getByTestId(`item-${code}`).getByLabel("Start from a brand kit").selectOption("Brand blue");
  await expect(page.getByTestId(`item-${code}`).getByLabel("Frame text")).toHaveValue("Scan me");

  await page.goto("/profile");
  await panel.getByRole("button", { name: "Delete brand kit Brand blue" }).click();
  await expect(panel.getByText("No brand kits yet.")).toBeVisible();
  const after = (await (await request.get("/v1/dynqrcodes", { headers })).json()) as typeof list;
  expect(after.dynqrcodes.find((d) => d.name === "Kit code")!.style).toEqual(kitCode.style);
});

test("a team's admin sees the team's kits on /business", async ({ page }) => {
  const admin = await account("kits-admin", "business", "Ada Admin");
  const team = await createTeam(admin.id, "Kit Team");
  await createPreset(
    { userId: admin.id, library: { kind: "team", teamId: team.id }, role: "admin" },
    { name: "Team green", style: { foreground: "#1b5e20", finder_shape: "dot" } },
  );
  await logIn(page, admin.email, "/business");
  await openSection(page, "Brand kits");
  const panel = page.getByTestId("brand-kits");
  await expect(panel.getByTestId("kit-Team green")).toContainText("#1b5e20 on #ffffff, dot finders");
  await shot(page, "brand-kits-business");
});
