// The pages' URL fields complete an address typed without a scheme to https:// (issue 39,
// point 7): what is completed, and what is left as typed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { completeUrl } from "../../components/ui/UrlInput";

describe("completeUrl", () => {
  it("puts https:// before an address typed without a scheme", () => {
    for (const [typed, done] of [
      ["example.com/menu", "https://example.com/menu"],
      ["  example.com  ", "https://example.com"],
      ["//example.com/x", "https://example.com/x"],
      ["localhost:8080/x", "https://localhost:8080/x"],
      ["example.com:443", "https://example.com:443"],
      ["bücher.example/ß?q=é", "https://bücher.example/ß?q=é"],
    ])
      assert.equal(completeUrl(typed), done, typed);
  });

  it("leaves an address with a scheme, and an empty field, as typed", () => {
    for (const typed of ["https://example.com", "HTTP://example.com", "mailto:a@example.com", "WIFI:S:x;;", "", "   "])
      assert.equal(completeUrl(typed), typed, typed);
  });
});
