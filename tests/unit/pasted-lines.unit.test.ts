import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseLines } from "../../server/library/pastedLines";

describe("pasted lines (name, url)", () => {
  it("reads name and URL, skipping blank lines and keeping line numbers", () => {
    const { items, problems } = parseLines("Menu, https://a.example/menu\n\n  Wine list ,https://a.example/wine  \r\n");
    assert.deepEqual(problems, []);
    assert.deepEqual(items, [
      { line: 1, name: "Menu", url: "https://a.example/menu" },
      { line: 3, name: "Wine list", url: "https://a.example/wine" },
    ]);
  });

  it("a name may hold commas: the URL is the last word after a comma", () => {
    assert.deepEqual(parseLines("Fish, chips, and peas, https://a.example/f").items, [
      { line: 1, name: "Fish, chips, and peas", url: "https://a.example/f" },
    ]);
  });

  it("a line without a URL is a problem named by its index", () => {
    const { items, problems } = parseLines("ok, https://a.example\nno url here\nalso, not-a-url");
    assert.equal(items.length, 1);
    assert.deepEqual(problems, [
      { index: 1, error: "write it as: name, https://…" },
      { index: 2, error: "write it as: name, https://…" },
    ]);
  });

  it("any scheme is read (the batch's URL rule refuses ftp: later, with the field's message)", () => {
    assert.deepEqual(parseLines("x, ftp://a.example").items, [{ line: 1, name: "x", url: "ftp://a.example" }]);
  });

  it("empty text gives nothing", () => {
    assert.deepEqual(parseLines(" \n\n"), { items: [], problems: [] });
  });
});
