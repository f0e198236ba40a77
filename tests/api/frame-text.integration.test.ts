// A frame's text in every script people write (issue 39, point 1): Latin with its accents,
// Greek, Cyrillic, Arabic and Hebrew (right to left), Japanese, Chinese, Korean and emoji.
// The PDF holds the text itself (pdftotext gives it back); the PNG, the SVG (drawn by
// Chromium) and the PDF (drawn by poppler) show the same band as the reference
// (tests/fixtures/frame-text, looked at when written): a missing glyph's box, or a fallback
// font, changes the band far beyond the threshold. A character no bundled font draws is
// refused at every save, named, and nothing is stored.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { PNG } from "pngjs";
import { chromium, type Browser } from "playwright-core";
import { bandDifference, bandOf, FRAME_COLOR, FRAME_TEXTS, FRAME_URL, FRAME_WIDTH, referencePath } from "../frame-text";
import { http, logIn, personalKey } from "../helpers";

/**
 * The pixels a band may have with no match in the reference (tests/frame-text.ts): the three
 * renderers smooth edges differently (measured: at most 47, poppler's Korean); another
 * script's text, or one box in place of a glyph, leaves 700 or more.
 */
const SAME = 150;

/** Bidi marks that pdftotext puts around right-to-left text, and its line and page breaks: not part of the text. */
const extracted = (text: string) =>
  text
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069\f]/g, "")
    .replace(/\s+/g, " ")
    .trim();

let browser: Browser;
let scratch: string;

const reference = (name: string) => {
  const image = PNG.sync.read(readFileSync(referencePath(name)));
  return {
    width: image.width,
    height: image.height,
    data: Uint8Array.from({ length: image.width * image.height }, (_, i) => image.data[i * 4]),
  };
};

describe("frame text in every script", () => {
  before(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), "frame-text-"));
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    });
  });
  after(async () => {
    await browser?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("each script: the PDF's text is the frame's, and PNG, SVG and PDF show the reference band", async () => {
    const { key } = await personalKey();
    const page = await browser.newPage();
    try {
      for (const [name, text] of Object.entries(FRAME_TEXTS)) {
        const created = await http("POST", "/v1/qrcodes", {
          key,
          json: { url: FRAME_URL, name, style: { frame: { text, color: FRAME_COLOR } } },
        });
        assert.equal(created.status, 201, `${name}: ${created.text}`);
        const at = `/v1/qrcodes/${(created.body as { created: { qr_id: string }[] }).created[0].qr_id}/image`;

        const pdf = await http("GET", `${at}?format=pdf`, { key });
        const file = path.join(scratch, `${name}.pdf`);
        writeFileSync(file, pdf.bytes);
        // pdftotext gives right-to-left text in logical order (the order it is typed in).
        assert.equal(
          extracted(execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"]).toString()),
          text,
          `${name}: pdftotext`,
        );
        const fonts = execFileSync("pdffonts", [file]).toString();
        assert.match(fonts, /Noto/, `${name}: a bundled font`);
        // After pdffonts' two heading lines, one line per font: a subset's name has a six-letter
        // tag (`ABCDEF+NotoSans-Regular`), and emb, sub and uni must each say yes.
        for (const line of fonts.trim().split("\n").slice(2))
          assert.match(
            line,
            /^[A-Z]{6}\+Noto\S*\s.*\byes\s+yes\s+yes\b/,
            `${name}: embedded, subset, mapped\n${fonts}`,
          );

        execFileSync("pdftoppm", [
          "-png",
          "-scale-to-x",
          String(FRAME_WIDTH),
          "-scale-to-y",
          "-1",
          "-singlefile",
          file,
          path.join(scratch, name),
        ]);
        const png = await http("GET", `${at}?format=png&size=${FRAME_WIDTH}`, { key });
        const svg = await http("GET", `${at}?format=svg&size=${FRAME_WIDTH}`, { key });
        assert.doesNotMatch(
          svg.text,
          /<text|font-family/,
          `${name}: the SVG draws outlines, needing no font where it is opened`,
        );
        await page.setContent(`<body style="margin:0;background:#fff">${svg.text}</body>`);
        const drawn = {
          PNG: png.bytes,
          "SVG in Chromium": await page.locator("svg").screenshot(),
          "PDF via pdftoppm": readFileSync(path.join(scratch, `${name}.png`)),
        };
        for (const [format, image] of Object.entries(drawn)) {
          const difference = bandDifference(bandOf(image), reference(name));
          assert.ok(difference < SAME, `${name}, ${format}: ${difference} pixels unlike the reference's`);
        }
      }
    } finally {
      await page.close();
    }
  });

  it("the comparison tells glyphs apart: every reference differs from every other by more than the threshold", () => {
    const names = Object.keys(FRAME_TEXTS);
    for (const a of names) {
      for (const b of names.filter((n) => n > a))
        assert.ok(bandDifference(reference(a), reference(b)) > 4 * SAME, `${a} vs ${b}`);
    }
  });

  it("characters no bundled font draws are refused at every save, named; nothing is stored", async () => {
    const { user, key } = await personalKey();
    const style = { frame: { text: "Menu \ue000 \u0378 ไทย", color: FRAME_COLOR } };
    const error =
      "style.frame.text has characters no font can draw: U+E000, U+0378, ไ (U+0E44), ท (U+0E17), ย (U+0E22)";
    const before = (await http("GET", "/v1/qrcodes", { key })).body;
    const create = await http("POST", "/v1/qrcodes", { key, json: { url: FRAME_URL, name: "X", style } });
    assert.deepEqual([create.status, create.body], [400, { error }]);
    assert.deepEqual((await http("GET", "/v1/qrcodes", { key })).body, before, "nothing stored");

    const dynamic = await http("POST", "/v1/dynqrcodes", { key, json: { destination_url: FRAME_URL, name: "D" } });
    const code = (dynamic.body as { created: { code: string }[] }).created[0].code;
    const patch = await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { style } });
    assert.deepEqual([patch.status, patch.body], [400, { error }]);
    const listed = (await http("GET", "/v1/dynqrcodes", { key })).body as {
      dynqrcodes: { code: string; style: object }[];
    };
    assert.deepEqual(listed.dynqrcodes.find((d) => d.code === code)?.style, {}, "unchanged");

    // The page's editor: no preview, the same reason where "This design scans" would be, and its save refused.
    const page = await logIn(user.email);
    const at = { scope: "personal", kind: "dynamic", id: code };
    const preview = (await page("library.previewStyle", { ...at, style })) as { svg: string | null; problem: string };
    assert.deepEqual(preview, { svg: null, problem: error });
    await assert.rejects(page("library.saveStyle", { ...at, style }), (e: Error) => e.message.includes(error));

    // A single emoji or a Hangul syllable is drawn: the refusal names only what no font has.
    for (const text of ["🫠", "한", "Ǆ ǅ ǆ", "ℵ ∑ €"]) {
      const ok = await http("POST", "/v1/qrcodes", {
        key,
        json: { url: FRAME_URL, name: text, style: { frame: { text, color: FRAME_COLOR } } },
      });
      assert.equal(ok.status, 201, `${text}: ${ok.text}`);
    }
  });
});
