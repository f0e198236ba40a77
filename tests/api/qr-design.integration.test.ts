// QR images that always scan (contract Part 2): every module and finder shape, with and
// without a logo and a frame, read back in each format — PNG by two decoders (jsQR and
// zxing-cpp), SVG drawn by Chromium and photographed, PDF turned into pixels by pdftoppm —
// to the record's url or short_url. Styles that would not scan are refused with their
// reason on every path (create, batch, PATCH, the page's editor) and nothing is stored; an
// unsafe SVG logo never reaches an image.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser } from "playwright-core";
import { contrastRatio } from "../../server/images/qrStyle";
import { http, logIn, personalKey } from "../helpers";
import { decodePng, decodePngZxing, pngSize } from "../qr-decode";

const svgLogo = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
const LOGO = svgLogo(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#e63946"/><path d="M3 5h4" stroke="#fff"/></svg>',
);
const FRAME = { text: "Scan me", color: "#1a2b3c" };
const MODULES = ["square", "dot", "rounded"] as const;
const FINDERS = ["square", "rounded", "dot"] as const;
const EXTRAS = [{}, { logo: LOGO }, { frame: FRAME }, { logo: LOGO, frame: FRAME }];

/** Every combination: 3 module shapes × 3 finder shapes × (none, logo, frame, both). */
const DESIGNS = MODULES.flatMap((module_shape) =>
  FINDERS.flatMap((finder_shape) => EXTRAS.map((extra) => ({ module_shape, finder_shape, ...extra }))),
);

let browser: Browser;
let scratch: string;

/** The SVG as Chromium draws it, photographed. */
async function photographSvg(svg: string): Promise<Buffer> {
  const page = await browser.newPage();
  try {
    await page.setContent(`<body style="margin:0;background:#fff">${svg}</body>`);
    return await page.locator("svg").screenshot();
  } finally {
    await page.close();
  }
}

/** The PDF's one page as pixels (poppler's pdftoppm at 200 dpi). */
function pdfToPng(pdf: Buffer, name: string): Buffer {
  const file = path.join(scratch, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync("pdftoppm", ["-png", "-r", "200", "-singlefile", file, path.join(scratch, name)]);
  return readFileSync(path.join(scratch, `${name}.png`));
}

async function readsBack(png: Buffer, expected: string, what: string) {
  assert.equal(decodePng(png), expected, `${what}: jsQR`);
  assert.equal(await decodePngZxing(png), expected, `${what}: zxing`);
}

type Created = { created: { qr_id?: string; code?: string; url?: string; short_url?: string; style: object }[] };

describe("QR designs that always scan", () => {
  before(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), "qr-design-"));
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

  it(`every module and finder shape, with and without logo and frame (${DESIGNS.length} designs), reads back as PNG, SVG and PDF`, async () => {
    const { key } = await personalKey();
    // Half static (they encode their url), half dynamic (their short_url), created by batch.
    const statics = DESIGNS.filter((_, i) => i % 2 === 0);
    const dynamics = DESIGNS.filter((_, i) => i % 2 === 1);
    const s = await http("POST", "/v1/qrcodes/batch", {
      key,
      json: { qrcodes: statics.map((style, i) => ({ url: `https://example.com/menu/${i}`, name: `S${i}`, style })) },
    });
    const d = await http("POST", "/v1/dynqrcodes/batch", {
      key,
      json: {
        dynqrcodes: dynamics.map((style, i) => ({
          destination_url: `https://example.com/d/${i}`,
          name: `D${i}`,
          style,
        })),
      },
    });
    assert.equal(s.status, 201, s.text);
    assert.equal(d.status, 201, d.text);
    const records = [
      ...(s.body as Created).created.map((r) => ({ path: `/v1/qrcodes/${r.qr_id}`, text: r.url!, style: r.style })),
      ...(d.body as Created).created.map((r) => ({
        path: `/v1/dynqrcodes/${r.code}`,
        text: r.short_url!,
        style: r.style,
      })),
    ];
    assert.equal(records.length, DESIGNS.length);
    for (const [n, { path: at, text, style }] of records.entries()) {
      const what = JSON.stringify({ ...style, logo: "logo" in style ? "…" : undefined });
      const png = await http("GET", `${at}/image?format=png&size=400`, { key });
      assert.equal(png.headers.get("content-type"), "image/png");
      assert.equal(pngSize(png.bytes).width, 400);
      await readsBack(png.bytes, text, `PNG ${what}`);

      const svg = await http("GET", `${at}/image?format=svg&size=400`, { key });
      assert.equal(svg.headers.get("content-type"), "image/svg+xml");
      assert.ok(!/<script|<foreignObject/i.test(svg.text), "nothing but drawing in the SVG");
      await readsBack(await photographSvg(svg.text), text, `SVG in Chromium ${what}`);

      const pdf = await http("GET", `${at}/image?format=pdf&size_mm=40`, { key });
      assert.equal(pdf.headers.get("content-type"), "application/pdf");
      assert.equal(pdf.bytes.subarray(0, 5).toString(), "%PDF-");
      // Vector: the only image a PDF holds is the logo.
      assert.equal(
        /\/Subtype \/Image/.test(pdf.bytes.toString("latin1")),
        "logo" in style,
        `${what}: images in the PDF`,
      );
      await readsBack(pdfToPng(pdf.bytes, `p${n}`), text, `PDF via pdftoppm ${what}`);
    }
  });

  it("a PDF is size_mm wide (points: mm × 72 / 25.4), a frame makes images taller; size_mm is only for PDFs", async () => {
    const { key } = await personalKey();
    const created = await http("POST", "/v1/qrcodes", {
      key,
      json: { url: "https://example.com/print", name: "Print", style: { frame: FRAME } },
    });
    const id = (created.body as Created).created[0].qr_id;
    for (const mm of [10, 500]) {
      const pdf = await http("GET", `/v1/qrcodes/${id}/image?format=pdf&size_mm=${mm}`, { key });
      const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(pdf.bytes.toString("latin1"));
      assert.ok(box, "a MediaBox");
      assert.ok(Math.abs(Number(box[1]) - (mm * 72) / 25.4) < 0.01, `${box[1]} points for ${mm} mm`);
      assert.ok(Number(box[2]) > Number(box[1]), "the frame's band below the code");
    }
    const png = await http("GET", `/v1/qrcodes/${id}/image?format=png&size=300`, { key });
    const { width, height } = pngSize(png.bytes);
    assert.equal(width, 300);
    assert.ok(height > width, `${width}×${height}`);
    for (const [query, error] of [
      ["format=png&size_mm=50", "size_mm is only for format=pdf (size is in pixels)"],
      ["format=pdf&size_mm=9", "size_mm must be an integer from 10 to 500"],
      ["format=pdf&size_mm=501", "size_mm must be an integer from 10 to 500"],
      ["format=pdf&size_mm=5.5", "size_mm must be an integer from 10 to 500"],
    ]) {
      const r = await http("GET", `/v1/qrcodes/${id}/image?${query}`, { key });
      assert.equal(r.status, 400, query);
      assert.deepEqual(r.body, { error }, query);
    }
  });

  it("styles that would not scan are 400 with their reason on create, batch and PATCH, and nothing is stored", async () => {
    const { key } = await personalKey();
    const grey = "#d0d0d0";
    const ratio = contrastRatio(grey, "#ffffff");
    assert.ok(ratio > 1.45 && ratio < 1.55, `contrast ${ratio}`);
    const refused: [object, string][] = [
      [{ logo: LOGO, logo_size: 40 }, "logo covers too much of the code"],
      [{ foreground: grey }, "contrast between colors is too low"],
      [{ foreground: "#ffffff", background: "#1a1a2e", finder_color: "#000000" }, "no finder patterns found"],
      [{ margin: 0, frame: FRAME }, "quiet zone too small"],
    ];
    const lists = async () => [
      (await http("GET", "/v1/qrcodes", { key })).body,
      (await http("GET", "/v1/dynqrcodes", { key })).body,
    ];
    const ok = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: "https://example.com/kept", name: "Kept", style: { module_shape: "dot" } },
    });
    const code = (ok.body as Created).created[0].code!;
    const listed = await lists();
    for (const [style, reason] of refused) {
      const error = `style makes the code unreadable: ${reason}`;
      const one = await http("POST", "/v1/qrcodes", { key, json: { url: "https://example.com/x", name: "X", style } });
      assert.equal(one.status, 400, JSON.stringify(style));
      assert.deepEqual(one.body, { error });
      const dyn = await http("POST", "/v1/dynqrcodes", {
        key,
        json: { destination_url: "https://example.com/x", name: "X", style },
      });
      assert.deepEqual([dyn.status, dyn.body], [400, { error }]);
      // A batch lists the refused item by index; its good neighbour is not created either.
      const batch = await http("POST", "/v1/dynqrcodes/batch", {
        key,
        json: {
          dynqrcodes: [
            { destination_url: "https://example.com/a", name: "A", style: { finder_shape: "dot" } },
            { destination_url: "https://example.com/b", name: "B", style },
          ],
        },
      });
      assert.deepEqual([batch.status, batch.body], [400, { errors: [{ index: 1, error }] }]);
      const patch = await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { style } });
      assert.deepEqual([patch.status, patch.body], [400, { error }]);
    }
    assert.deepEqual(await lists(), listed, "nothing stored, nothing changed");
    // A good PATCH changes the style, and the image follows it.
    const patched = await http("PATCH", `/v1/dynqrcodes/${code}`, {
      key,
      json: { style: { finder_shape: "rounded", frame: FRAME } },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual((patched.body as { style: object }).style, { finder_shape: "rounded", frame: FRAME });
    const png = await http("GET", `/v1/dynqrcodes/${code}/image?format=png&size=300`, { key });
    assert.ok(pngSize(png.bytes).height > 300, "the frame is drawn");
    await readsBack(png.bytes, (patched.body as { short_url: string }).short_url, "patched");
  });

  it("an SVG logo with a script or an external reference, or a PNG with a huge header, never reaches an image", async () => {
    const { user, key } = await personalKey();
    const png = (width: number, height: number) => {
      const header = Buffer.alloc(33);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header);
      header.writeUInt32BE(13, 8);
      header.write("IHDR", 12, "latin1");
      header.writeUInt32BE(width, 16);
      header.writeUInt32BE(height, 20);
      return `data:image/png;base64,${header.toString("base64")}`;
    };
    const unsafe: [string, string][] = [
      [
        svgLogo('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><circle r="5"/></svg>'),
        "style.logo: an SVG logo must not contain a script",
      ],
      [
        svgLogo('<svg xmlns="http://www.w3.org/2000/svg"><circle r="5" onload="alert(1)"/></svg>'),
        "style.logo: an SVG logo must not contain an event handler",
      ],
      [
        svgLogo(
          '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://evil.example/x.png"/></svg>',
        ),
        "style.logo: an SVG logo must not contain an external reference",
      ],
      [
        svgLogo('<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(https://evil.example/p)"/></svg>'),
        "style.logo: an SVG logo must not contain an external reference",
      ],
      [
        svgLogo('<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><p>x</p></foreignObject></svg>'),
        "style.logo: an SVG logo must not contain a foreignObject",
      ],
      [
        svgLogo(
          '<svg xmlns="http://www.w3.org/2000/svg"><a><set attributeName="href" to="https://evil.example/"/></a></svg>',
        ),
        "style.logo: an SVG logo must not contain an animation",
      ],
      [png(100_000, 100_000), "style.logo: a PNG logo must be at most 2048×2048 pixels"],
      [
        "data:image/gif;base64,R0lGODlhAQABAAAAACw=",
        "style.logo must be a data:image/png;base64, or data:image/svg+xml;base64, URL",
      ],
      [
        svgLogo(`<svg xmlns="http://www.w3.org/2000/svg"><desc>${"x".repeat(50_000)}</desc></svg>`),
        "style.logo must be at most 64 KiB",
      ],
    ];
    const page = await logIn(user.email);
    await page("library.create", { scope: "personal", kind: "static", name: "Mine", url: "https://example.com/mine" });
    const listed = (await http("GET", "/v1/qrcodes", { key })).body;
    const [item] = (listed as { qrcodes: { qr_id: string }[] }).qrcodes;
    for (const [logo, error] of unsafe) {
      const r = await http("POST", "/v1/qrcodes", {
        key,
        json: { url: "https://example.com/x", name: "X", style: { logo } },
      });
      assert.deepEqual([r.status, r.body], [400, { error }]);
      // The editor's preview does not draw it, and its save refuses it.
      const preview = (await page("library.previewStyle", {
        scope: "personal",
        kind: "static",
        id: item.qr_id,
        style: { logo },
      })) as { svg: string | null; problem: string };
      assert.equal(preview.svg, null);
      assert.equal(preview.problem.toLowerCase(), error.toLowerCase());
      await assert.rejects(
        page("library.saveStyle", { scope: "personal", kind: "static", id: item.qr_id, style: { logo } }),
        (e: Error) => e.message.toLowerCase().includes(error.toLowerCase()),
      );
    }
    assert.deepEqual((await http("GET", "/v1/qrcodes", { key })).body, listed, "nothing stored");
  });

  it("the page's editor: the preview and check say whether a design scans; a save runs the same check", async () => {
    const { user, key } = await personalKey();
    const page = await logIn(user.email);
    await page("library.create", {
      scope: "personal",
      kind: "dynamic",
      name: "Poster",
      url: "https://example.com/poster",
    });
    const dyn = (await http("GET", "/v1/dynqrcodes", { key })).body as {
      dynqrcodes: { code: string; short_url: string }[];
    };
    const { code, short_url } = dyn.dynqrcodes[0];
    const at = { scope: "personal", kind: "dynamic", id: code };
    const good = { module_shape: "rounded", finder_shape: "dot", finder_color: "#e63946", logo: LOGO, frame: FRAME };
    const preview = (await page("library.previewStyle", { ...at, style: good })) as {
      svg: string;
      problem: string | null;
    };
    assert.equal(preview.problem, null);
    await readsBack(await photographSvg(preview.svg), short_url, "preview");
    const bad = (await page("library.previewStyle", { ...at, style: { ...good, logo_size: 40 } })) as {
      svg: string;
      problem: string;
    };
    assert.equal(bad.problem, "style makes the code unreadable: logo covers too much of the code");
    assert.ok(bad.svg.startsWith("<svg"), "an unreadable design is still previewed");
    await assert.rejects(
      page("library.saveStyle", { ...at, style: { ...good, logo_size: 40 } }),
      /logo covers too much of the code/i,
    );
    await page("library.saveStyle", { ...at, style: good });
    const saved = await http("GET", `/v1/dynqrcodes/${code}/image?format=svg&size=192`, { key });
    // The preview is the saved image: the same renderer, the same drawing.
    assert.equal(saved.text, preview.svg);
  });

  it("a batch of 50 styled codes (logo, frame, shapes) answers within 2 s", async () => {
    const { key } = await personalKey();
    const items = Array.from({ length: 50 }, (_, i) => ({
      destination_url: `https://example.com/many/${i}`,
      name: `M${i}`,
      style: DESIGNS[i % DESIGNS.length],
    }));
    const started = performance.now();
    const r = await http("POST", "/v1/dynqrcodes/batch", { key, json: { dynqrcodes: items } });
    const ms = performance.now() - started;
    assert.equal(r.status, 201, r.text);
    console.log(`# batch of 50 styled codes: ${Math.round(ms)} ms`);
    assert.ok(ms < 2000, `${Math.round(ms)} ms`);
  });
});
