import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { weakness } from "../../server/platform/secrets";

describe("secret strength", () => {
  it("a random value of 32+ characters passes", () => {
    assert.equal(weakness("q8Zr2mX0vLk4PbN7tYw1Hc5Jd9Fs3Ge6"), null);
  });
  it("short values are refused", () => {
    assert.equal(weakness("q8Zr2mX0vLk4PbN7tYw1Hc5Jd9Fs3G"), "must be at least 32 characters");
  });
  it("repetitive values are refused", () => {
    assert.match(weakness("abababababababababababababababababab")!, /too repetitive/);
  });
  it("known placeholders are refused, even repeated to length with separators", () => {
    assert.match(weakness("changeme-changeme-changeme-changeme-2026")!, /known placeholder \("changeme"\)/);
    assert.match(weakness("your-secret-your-secret-your-secret-2026")!, /known placeholder \("your-secret"\)/);
  });
  it("a placeholder inside a longer random value is not one", () => {
    assert.equal(weakness("secret-9f8Kq2LmZx7Vb4Nc1Hd6Jw3Rt5Ys0Pg"), null);
  });
});
