// The frame text's layout (server/images/frameText.ts): which bundled font draws each
// character, the runs' visual order (right to left where the text is), Arabic joining, and
// the characters no font draws.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { layoutCaption, undrawableCharacters } from "../../server/images/frameText";

const fontsOf = (text: string) => layoutCaption(text).runs.map((run) => [run.face.font.postscriptName, run.text]);

describe("frame text layout", () => {
  it("each script in the font that draws it; spaces and punctuation stay with their neighbours", () => {
    assert.deepEqual(fontsOf("Zażółć gęślą — メニュー"), [
      ["NotoSans-Bold", "Zażółć gęślą — "],
      ["NotoSansSC-Bold", "メニュー"],
    ]);
    assert.deepEqual(fontsOf("한국어 🍕"), [
      ["NotoSansKR-Bold", "한국어 "],
      ["NotoEmoji-Bold", "🍕"],
    ]);
    // An emoji sequence (skin tone, joiner, VS16, flag) is one cluster of the emoji font, drawn as one glyph.
    for (const emoji of ["👍🏽", "👨‍👩‍👧", "❤️", "🇵🇱"]) {
      const [run] = layoutCaption(emoji).runs;
      assert.equal(run.face.font.postscriptName, "NotoEmoji-Bold", emoji);
      assert.equal(run.outline.length, 1, `${emoji}: one glyph`);
      assert.notEqual(run.outline[0].id, 0, `${emoji}: not the missing glyph`);
    }
  });

  it("right-to-left runs are laid out right to left and put in visual order", () => {
    const hebrew = layoutCaption("שלום");
    assert.equal(hebrew.runs.length, 1);
    assert.equal(hebrew.runs[0].rtl, true);
    // The leftmost glyph is the last letter (ם).
    assert.deepEqual(hebrew.runs[0].outline[0].codePoints, ["ם".codePointAt(0)]);
    // A left-to-right paragraph with an Arabic word and a number after it: the number joins the Arabic (UAX #9).
    assert.deepEqual(
      layoutCaption("Menu مرحبا 123!").runs.map((run) => run.text),
      ["Menu ", "123", "مرحبا ", "!"],
    );
  });

  it("Arabic letters join: the same letter takes another form inside a word", () => {
    const names = (text: string) => layoutCaption(text).runs[0].outline.map((glyph) => glyph.name);
    assert.deepEqual(names("ه"), ["uni0647"]);
    // Visual order: the word's end (final form) is leftmost.
    assert.deepEqual(names("ههه"), ["uni0647.fina", "uni0647.medi", "uni0647.init"]);
  });

  it("names only the characters no bundled font draws", () => {
    assert.deepEqual(undrawableCharacters("Zażółć Ελλάδα Москва مرحبا שלום 你好 メニュー 한국 🍕👍🏽"), []);
    assert.deepEqual(undrawableCharacters("a\ue000b\u0378\ue000 ไทย"), ["\ue000", "\u0378", "ไ", "ท", "ย"]);
  });
});
