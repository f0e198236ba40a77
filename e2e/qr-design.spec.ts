// The style editor in Chromium (issue 20): upload a logo (one too large refused on the spot),
// change the shapes, colours and frame; "This design scans" only once the server's decode
// check ran; a logo too large for the code is refused before saving; the preview and the
// saved image are the same drawing and both decode to the short URL.
import { expect, test, type BrowserContext } from "@playwright/test";
import { generateKey } from "../server/keys/apiKeys";
import { decodePng } from "../tests/qr-decode";
import { account, logIn, shot } from "./helpers";

const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#e63946"/><path d="M3 5h4" stroke="#fff"/></svg>';

/** An SVG as Chromium draws it at 400 px, photographed and decoded. */
async function decodeSvg(context: BrowserContext, svg: string): Promise<string | null> {
  const viewer = await context.newPage();
  await viewer.setContent(
    `<body style="margin:0;background:#fff">${svg.replace(/width="\d+" height="\d+"/, (size) => size.replace(/\d+/g, (n) => String(Math.round((Number(n) * 400) / 192))))}</body>`,
  );
  const text = decodePng(await viewer.locator("svg").screenshot());
  await viewer.close();
  return text;
}

test("the style editor designs a code that scans: logo, shapes, frame; the preview is the saved image", async ({
  page,
  request,
  context,
}) => {
  const user = await account("design", "pro", "Dee Zine");
  const { key } = await generateKey(user.id, "personal");
  const headers = { "x-api-key": key };
  const created = await (
    await request.post("/v1/dynqrcodes", {
      headers,
      data: { destination_url: "https://example.com/poster", name: "Poster" },
    })
  ).json();
  const { code, short_url } = created.created[0];
  await logIn(page, user.email, "/library");
  const row = page.getByTestId(`item-${code}`);
  await row.getByRole("button", { name: "Style" }).click();
  await expect(row.getByTestId(`style-check-${code}`)).toHaveText("This design scans");

  // A logo above 64 KiB is refused at once, with the limit named.
  const logoInput = row.getByLabel("Logo (PNG or SVG, up to 64 KiB)");
  await logoInput.setInputFiles({
    name: "big.svg",
    mimeType: "image/svg+xml",
    buffer: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><desc>${"x".repeat(60_000)}</desc></svg>`),
  });
  await expect(row.getByTestId(`logo-error-${code}`)).toContainText("The logo is too large: at most 64 KiB");
  await logoInput.setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from(LOGO_SVG) });
  await expect(row.getByTestId(`logo-error-${code}`)).toHaveCount(0);
  await row.getByLabel("Module shape").selectOption("dot");
  await row.getByLabel("Finder shape").selectOption("rounded");
  await row.getByLabel("Finder colour").fill("#1d3557");
  await row.getByLabel("Frame text").fill("Scan me");
  await row.getByLabel("Frame colour").fill("#1d3557");

  // Too large a logo for the code: refused before anything is saved.
  await row.getByLabel("Logo size").fill("40");
  await expect(row.getByRole("alert")).toContainText(
    "style makes the code unreadable: logo covers too much of the code",
  );
  await expect(row.getByRole("button", { name: "Save style" })).toBeDisabled();
  await row.getByLabel("Logo size").fill("8");
  await expect(row.getByTestId(`style-check-${code}`)).toHaveText("This design scans");
  const preview = row.getByTestId("style-preview");
  const previewSvg = decodeURIComponent(
    (await preview.getAttribute("src"))!.replace(/^data:image\/svg\+xml;charset=utf-8,/, ""),
  );
  expect(previewSvg).toContain('fill="#1d3557"');
  expect(await decodeSvg(context, previewSvg)).toBe(short_url);
  await shot(page, "qr-design-editor");

  await row.getByRole("button", { name: "Save style" }).click();
  await expect(row.getByRole("button", { name: "Save style" })).toHaveCount(0);
  const saved = (await (await request.get("/v1/dynqrcodes", { headers })).json()).dynqrcodes.find(
    (d: { code: string }) => d.code === code,
  );
  expect(saved.style).toMatchObject({
    module_shape: "dot",
    finder_shape: "rounded",
    finder_color: "#1d3557",
    logo_size: 8,
    frame: { text: "Scan me", color: "#1d3557" },
  });
  expect(saved.style.logo).toBe(`data:image/svg+xml;base64,${Buffer.from(LOGO_SVG).toString("base64")}`);

  // The saved image is the preview's drawing, and both read back as the short URL.
  const savedSvg = await (await request.get(`/v1/dynqrcodes/${code}/image?format=svg&size=192`, { headers })).text();
  expect(savedSvg).toBe(previewSvg);
  const png = await request.get(`/v1/dynqrcodes/${code}/image?format=png&size=400`, { headers });
  expect(decodePng(Buffer.from(await png.body()))).toBe(short_url);
  await shot(page, "qr-design-saved");
});

test("the style editor's frame text in any script: previewed as saved; a character no font draws is named and refused", async ({
  page,
  request,
}) => {
  const user = await account("frames", "pro", "Fay Rame");
  const { key } = await generateKey(user.id, "personal");
  const headers = { "x-api-key": key };
  const created = await (
    await request.post("/v1/dynqrcodes", {
      headers,
      data: { destination_url: "https://example.com/menu", name: "Menu" },
    })
  ).json();
  const { code } = created.created[0];
  await logIn(page, user.email, "/library");
  const row = page.getByTestId(`item-${code}`);
  await row.getByRole("button", { name: "Style" }).click();

  // The text: Polish and Japanese, drawn as outlines (no font needed where the SVG is shown).
  await row.getByLabel("Frame text").fill("Zażółć gęślą — メニュー");
  await expect(row.getByTestId(`style-check-${code}`)).toHaveText("This design scans");
  const src = await row.getByTestId("style-preview").getAttribute("src");
  const previewSvg = decodeURIComponent(src!.replace(/^data:image\/svg\+xml;charset=utf-8,/, ""));
  expect(previewSvg).not.toMatch(/<text|font-family/);
  await shot(page, "qr-design-frame-scripts");
  await row.getByRole("button", { name: "Save style" }).click();
  await expect(row.getByRole("button", { name: "Save style" })).toHaveCount(0);
  expect(await (await request.get(`/v1/dynqrcodes/${code}/image?format=svg&size=192`, { headers })).text()).toBe(
    previewSvg,
  );

  // A private-use character: named where "This design scans" would be, no preview, the save refused.
  await row.getByRole("button", { name: "Style" }).click();
  await row.getByLabel("Frame text").fill("Menu \ue000");
  const error = "style.frame.text has characters no font can draw: U+E000";
  await expect(row.getByTestId(`style-check-${code}`)).toHaveText(error);
  await expect(row.getByTestId("style-preview")).toHaveCount(0);
  await row.getByRole("button", { name: "Save style" }).click();
  await expect(row.getByTestId(`style-error-${code}`)).toContainText(error);
  await shot(page, "qr-design-frame-refused");
  const saved = (await (await request.get("/v1/dynqrcodes", { headers })).json()).dynqrcodes.find(
    (d: { code: string }) => d.code === code,
  );
  expect(saved.style.frame.text).toBe("Zażółć gęślą — メニュー");
});
