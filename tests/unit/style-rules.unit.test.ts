// The style rules that need no drawing (server/images/qrStyle.ts, logo.ts, the style field of
// validation.ts, the capacity rule of qrImage.ts): defaults, contrast, finder colours, the
// quiet zone under a frame, the logo's share, what a logo may be, and the field's messages;
// and what an image request may ask (images.ts, imagesZip.ts).
// The decode check itself draws (tests/api/qr-design.integration.test.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { drawingProblem, imageQuery, notLiveSuffix } from "../../server/images/images";
import { zipIdsField } from "../../server/images/imagesZip";
import { logoProblem, parseLogo, pngDimensions } from "../../server/images/logo";
import { capacityProblem, MAX_BYTES } from "../../server/images/qrImage";
import { cheapUnreadableReason, contrastRatio, MIN_CONTRAST, resolvedStyle } from "../../server/images/qrStyle";
import { styleField, type Style } from "../../server/library/validation";

/** A PNG's signature and IHDR chunk: all the rules read of it. */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write("IHDR", 4, "latin1");
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}
const png = (width: number, height: number) => `data:image/png;base64,${pngHeader(width, height).toString("base64")}`;
const svg = (markup: string) => `data:image/svg+xml;base64,${Buffer.from(markup).toString("base64")}`;
const LOGO = png(64, 64);

describe("contrast", () => {
  it("WCAG's ratio: 21 for black on white, 1 for a colour on itself, either order", () => {
    assert.equal(contrastRatio("#000000", "#ffffff"), 21);
    assert.equal(contrastRatio("#ffffff", "#000000"), 21);
    assert.equal(contrastRatio("#7f7f7f", "#7f7f7f"), 1);
    // WCAG's grey #767676 on white is the AA figure 4.54.
    assert.equal(Math.round(contrastRatio("#767676", "#ffffff") * 100) / 100, 4.54);
  });
});

describe("a style with every choice decided", () => {
  it("what a style leaves unsaid: black on white, M, a 4-module quiet zone, square shapes, finders in the foreground", () => {
    assert.deepEqual(resolvedStyle({}), {
      foreground: "#000000",
      background: "#ffffff",
      error_correction: "M",
      margin: 4,
      module_shape: "square",
      finder_shape: "square",
      finder_color: "#000000",
      logo: null,
      logo_size: 8,
      frame: null,
    });
    assert.equal(resolvedStyle({ foreground: "#123456" }).finder_color, "#123456");
    assert.equal(resolvedStyle({ error_correction: "L" }).error_correction, "L");
  });

  it("a logo raises error correction to H, whatever was asked", () => {
    assert.equal(resolvedStyle({ error_correction: "L", logo: LOGO }).error_correction, "H");
  });
});

describe("the reasons found without drawing", () => {
  const reason = (style: Style) => cheapUnreadableReason(style);

  it("too little contrast, between the colours or between the finders and the background", () => {
    assert.equal(reason({}), null);
    assert.equal(reason({ foreground: "#777777", background: "#888888" }), "contrast between colors is too low");
    assert.equal(
      reason({ background: "#eeeeee", finder_color: "#ffffff" }),
      "no finder patterns found",
      "finders lighter than the background of a dark-on-light code",
    );
    assert.equal(
      reason({ finder_color: "#b0b0b0" }),
      "contrast between colors is too low",
      "dark enough to be finders, too light to be seen",
    );
    assert.equal(reason({ foreground: "#ffffff", background: "#000000" }), null, "light on dark scans");
    assert.equal(
      reason({ foreground: "#ffffff", background: "#222222", finder_color: "#000000" }),
      "no finder patterns found",
    );
  });

  it("the contrast threshold is MIN_CONTRAST", () => {
    // Greys on white just either side of 3:1.
    assert.ok(
      contrastRatio("#959595", "#ffffff") < MIN_CONTRAST && contrastRatio("#949494", "#ffffff") >= MIN_CONTRAST,
    );
    assert.equal(reason({ foreground: "#959595" }), "contrast between colors is too low");
    assert.equal(reason({ foreground: "#949494" }), null);
  });

  it("a frame needs a quiet zone of 2 modules; a logo may cover at most 10% of the code", () => {
    const frame = { text: "Scan me", color: "#000000" };
    assert.equal(reason({ frame, margin: 1 }), "quiet zone too small");
    assert.equal(reason({ frame, margin: 2 }), null);
    assert.equal(reason({ margin: 0 }), null, "no frame: the margin is the owner's choice");
    assert.equal(reason({ logo: LOGO, logo_size: 11 }), "logo covers too much of the code");
    assert.equal(reason({ logo: LOGO, logo_size: 10 }), null);
    assert.equal(reason({ logo_size: 50 }), null, "no logo: the size is not used");
  });
});

describe("logos", () => {
  it("a PNG's size comes from its header; anything else is not a PNG", () => {
    assert.deepEqual(pngDimensions(pngHeader(300, 200)), { width: 300, height: 200 });
    assert.equal(pngDimensions(pngHeader(300, 200).subarray(0, 23)), null);
    assert.equal(pngDimensions(Buffer.from("GIF89a" + "x".repeat(30))), null);
    assert.deepEqual(parseLogo(svg("<svg/>"))?.type, "svg");
    assert.equal(parseLogo("data:image/gif;base64,R0lGOD"), null);
  });

  it("a PNG of at most 2048×2048 pixels, never one that claims more (a decoder's denial of service)", () => {
    assert.equal(logoProblem(png(2048, 2048)), null);
    assert.equal(logoProblem(png(4096, 1024)), null, "the pixels count, not each side");
    assert.equal(logoProblem(png(2049, 2048)), "style.logo: a PNG logo must be at most 2048×2048 pixels");
    assert.equal(logoProblem(png(0, 10)), "style.logo: a PNG logo must be at most 2048×2048 pixels");
    assert.equal(
      logoProblem(`data:image/png;base64,${Buffer.from("not a png at all, long enough").toString("base64")}`),
      "style.logo is not a PNG image",
    );
    assert.equal(
      logoProblem("https://example.com/logo.png"),
      "style.logo must be a data:image/png;base64, or data:image/svg+xml;base64, URL",
    );
  });

  it("an SVG that runs nothing and reaches nothing beyond itself", () => {
    assert.equal(
      logoProblem(svg('<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="a"/></defs><use href="#a"/></svg>')),
      null,
    );
    const refused: [string, string][] = [
      ["<svg><script>alert(1)</script></svg>", "a script"],
      ['<svg onload="alert(1)"></svg>', "an event handler"],
      ["<svg><foreignObject/></svg>", "a foreignObject"],
      ['<!DOCTYPE svg [<!ENTITY x "y">]><svg></svg>', "a DOCTYPE or entity"],
      ["<svg><style>@import 'x.css'</style></svg>", "an external reference"],
      ["<svg><rect fill=\"url('https://x.example/p')\"/></svg>", "an external reference"],
      ['<svg><image href="https://x.example/a.png"/></svg>', "an external reference"],
      ["<svg><image xlink:href='data:image/png;base64,AA'/></svg>", "an external reference"],
      ['<svg><set attributeName="href" to="https://x.example"/></svg>', "an animation"],
      ["<svg><iframe/></svg>", "an embedded document"],
    ];
    for (const [markup, what] of refused)
      assert.equal(logoProblem(svg(markup)), `style.logo: an SVG logo must not contain ${what}`, markup);
    assert.equal(logoProblem(svg("<html></html>")), "style.logo: an SVG logo must be an SVG document");
  });
});

describe("the style field", () => {
  const problems = (value: unknown) => styleField.safeParse(value).error?.issues.map((i) => i.message) ?? [];

  it("accepts the contract's example and echoes it", () => {
    const example = {
      foreground: "#000000",
      background: "#ffffff",
      error_correction: "M",
      margin: 4,
      module_shape: "rounded",
      finder_shape: "rounded",
      frame: { text: "Scan me", color: "#1a2b3c" },
    };
    assert.deepEqual(styleField.parse(example), example);
  });

  it("names the field and what to send instead", () => {
    assert.deepEqual(problems({ foreground: "black" }), ["style.foreground must be a colour like #1a2b3c"]);
    assert.deepEqual(problems({ margin: 17 }), ["style.margin must be an integer from 0 to 16"]);
    assert.deepEqual(problems({ margin: 1.5 }), ["style.margin must be an integer from 0 to 16"]);
    assert.deepEqual(problems({ module_shape: "star" }), ["style.module_shape must be one of square, dot, rounded"]);
    assert.deepEqual(problems({ logo_size: 0 }), [
      "style.logo_size must be an integer from 1 to 50 (percent of the code's area)",
    ]);
    assert.deepEqual(problems({ colour: "#000000" }), ["style has an unknown field: colour"]);
    assert.deepEqual(problems("red"), ["style must be an object"]);
    assert.deepEqual(problems({ frame: { text: "", color: "#000000" } }), [
      "style.frame.text must be 1 to 24 characters, no control characters",
    ]);
    assert.deepEqual(problems({ frame: { text: "a\tb", color: "#000000" } }), [
      "style.frame.text must be 1 to 24 characters, no control characters",
    ]);
    assert.deepEqual(
      problems({ frame: { text: "😀".repeat(24), color: "#000000" } }),
      [],
      "24 characters, 48 UTF-16 units",
    );
  });

  it("a style that draws an unreadable code is refused with the reason", () => {
    assert.deepEqual(problems({ foreground: "#eeeeee" }), [
      "style makes the code unreadable: contrast between colors is too low",
    ]);
  });
});

describe("capacity", () => {
  it("bytes in UTF-8 at the level's limit: one more is refused with the level's figure", () => {
    assert.equal(capacityProblem("a".repeat(MAX_BYTES.M)), null);
    assert.equal(
      capacityProblem("a".repeat(MAX_BYTES.M + 1)),
      "is too long for a QR code at error correction M: at most 2331 bytes (UTF-8)",
    );
    assert.equal(
      capacityProblem("ä".repeat(MAX_BYTES.H / 2 + 1), "H"),
      "is too long for a QR code at error correction H: at most 1273 bytes (UTF-8)",
    );
    assert.equal(capacityProblem("ä".repeat(Math.floor(MAX_BYTES.H / 2)), "H"), null);
  });
});

describe("image requests", () => {
  const query = (q: Record<string, string>) => imageQuery.safeParse(q);

  it("format, size in pixels and a PDF's width in millimetres, each with its default", () => {
    assert.deepEqual(query({}).data, { format: "svg", size: 512, size_mm: 50 });
    assert.deepEqual(query({ format: "pdf", size_mm: "500" }).data, { format: "pdf", size: 512, size_mm: 500 });
    assert.equal(query({ size: "64" }).data?.size, 64);
  });

  it("refuses what it cannot draw, with the range", () => {
    const message = (q: Record<string, string>) => query(q).error?.issues[0].message;
    assert.equal(message({ size: "63" }), "size must be an integer from 64 to 2048");
    assert.equal(message({ size: "2049" }), "size must be an integer from 64 to 2048");
    assert.equal(message({ size: "1e3" }), "size must be an integer from 64 to 2048");
    assert.equal(message({ format: "gif" }), "format must be svg, png or pdf");
    assert.equal(message({ format: "png", size_mm: "50" }), "size_mm is only for format=pdf (size is in pixels)");
    assert.equal(message({ format: "pdf", size_mm: "9" }), "size_mm must be an integer from 10 to 500");
  });

  it("a ZIP's ids: comma-separated, trimmed, without repeats, at most 1000 of their shape", () => {
    const ids = zipIdsField("dynamic");
    assert.deepEqual(ids.parse(" AbCd1234, x_y ,AbCd1234"), ["AbCd1234", "x_y"]);
    assert.equal(ids.parse(undefined), undefined);
    assert.equal(ids.safeParse(Array.from({ length: 1000 }, (_, i) => `c${i}`).join(",")).success, true);
    for (const bad of [Array.from({ length: 1001 }, (_, i) => `c${i}`).join(","), "a,,b", "a/b"]) {
      assert.equal(
        ids.safeParse(bad).error?.issues[0].message,
        "ids must be a comma-separated list of at most 1000 code values",
      );
    }
  });

  it("a file that should not be printed yet says so; a record too long to draw is named by its field", () => {
    assert.deepEqual(["draft", "paused", "active", undefined].map(notLiveSuffix), [
      "-draft-not-live",
      "-paused-not-live",
      "",
      "",
    ]);
    assert.equal(drawingProblem("url", "a".repeat(2000), {}), null);
    assert.equal(
      drawingProblem("url", "a".repeat(2000), { logo: LOGO }),
      "url is too long for a QR code at error correction H: at most 1273 bytes (UTF-8)",
    );
    assert.equal(
      drawingProblem("short_url", "a".repeat(1400), { error_correction: "H" }),
      "short_url is too long for a QR code at error correction H: at most 1273 bytes (UTF-8)",
    );
  });
});
