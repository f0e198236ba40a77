// Static codes of every kind on /library (issue 44): the create form shows a labelled form per
// type; a Wi-Fi code, a contact card and an event are created there, stored with their content,
// and their images decode to the standard payloads. Checked for accessibility, at 1280 and 390 px.
import { expect, test } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { contentPayload } from "../server/codeTypes/payload";
import { decodePng } from "../tests/qr-decode";
import { accessibilityErrors, account, logIn, shotAtWidths } from "./helpers";

type Rec = { qr_id: string; name: string; type: string; url: string | null; content: Record<string, unknown> };

test("a static code of each kind is created with its own form, and its image holds the payload", async ({
  page,
  request,
}) => {
  const user = await account("types", "pro", "Tia Types");
  const { key } = await generateKey(user.id, "personal");
  const headers = { "x-api-key": key };
  const codes = async () => ((await (await request.get("/v1/qrcodes", { headers })).json()).qrcodes as Rec[]).reverse();
  await logIn(page, user.email, "/library");
  await page.getByLabel("Kind").selectOption("static");

  // Wi-Fi: name, network, security, password, hidden.
  await page.getByLabel("Type", { exact: true }).selectOption("wifi");
  await expect(page.getByLabel("URL", { exact: true })).toHaveCount(0);
  await page.getByLabel("Name", { exact: true }).fill("Guest Wi-Fi");
  await page.getByLabel("Network name (SSID)").fill("Café;Gäste");
  await page.getByLabel("Security").selectOption("WPA");
  await page.getByLabel("Password", { exact: true }).fill("espresso:2026");
  await page.getByLabel("Hidden network").check();
  expect(await accessibilityErrors(page)).toEqual([]);
  await shotAtWidths(page, "code-types-wifi-form");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("page-of")).toContainText("1 code");

  // A refusal names the field and keeps what was typed.
  await page.getByLabel("Type", { exact: true }).selectOption("vcard");
  await page.getByLabel("Name", { exact: true }).fill("Zoë's card");
  await page.getByLabel("First name").fill("Zoë");
  await page.getByLabel("Last name").fill("Müller");
  await page.getByLabel("Organization").fill("Müller & Söhne, Berlin");
  await page.getByLabel("Phone numbers").fill("+49 30 1234567\nnot a phone");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("library-error")).toContainText("content.phones[1] must be a phone number");
  await page.getByLabel("Phone numbers").fill("+49 30 1234567\n+49 171 2345");
  await page.getByLabel("Email addresses").fill("zoe@example.com");
  await shotAtWidths(page, "code-types-vcard-form");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("page-of")).toContainText("2 codes");

  await page.getByLabel("Type", { exact: true }).selectOption("event");
  await page.getByLabel("Name", { exact: true }).fill("Summer party");
  await page.getByLabel("Title").fill("Sommerfest, groß");
  await page.getByLabel("Starts").fill("2026-07-04T18:00");
  await page.getByLabel("Ends").fill("2026-07-04T23:00");
  expect(await accessibilityErrors(page)).toEqual([]);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("page-of")).toContainText("3 codes");
  await expect(page.getByTestId("library-error")).toHaveCount(0);

  const [wifi, card, event] = await codes();
  expect([wifi.type, wifi.url, wifi.content]).toEqual([
    "wifi",
    null,
    { ssid: "Café;Gäste", encryption: "WPA", password: "espresso:2026", hidden: true },
  ]);
  expect(card.content).toEqual({
    first_name: "Zoë",
    last_name: "Müller",
    organization: "Müller & Söhne, Berlin",
    phones: ["+49 30 1234567", "+49 171 2345"],
    emails: ["zoe@example.com"],
  });
  // The browser's zone (the runner's) gives the offset: the instant is 18:00 there.
  expect(event.content.title).toBe("Sommerfest, groß");
  expect(event.content.start).toMatch(/^2026-07-04T18:00:00[+-]\d{2}:\d{2}$/);
  for (const code of [wifi, card, event]) {
    const image = await request.get(`/v1/qrcodes/${code.qr_id}/image?format=png&size=600`, { headers });
    expect(decodePng(await image.body())).toBe(contentPayload(code.type as never, code.content as never));
  }
  await expect(page.getByTestId(`item-${wifi.qr_id}`)).toContainText("Wi-Fi: Café;Gäste (WPA)");
  await shotAtWidths(page, "code-types-library");
});
