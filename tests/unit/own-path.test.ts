// Where log-in and sign-up go afterwards (an invitation's link brings them back to it): only
// our own paths, never another site (an open redirect).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ownPath } from "../../components/ownPath";

describe("ownPath", () => {
  it("keeps our own paths and refuses anything that leaves the site", () => {
    assert.equal(ownPath("/invite/AbC123", "/profile"), "/invite/AbC123");
    assert.equal(ownPath("/business?x=1", "/profile"), "/business?x=1");
    for (const elsewhere of [undefined, "", "https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "invite/x"]) {
      assert.equal(ownPath(elsewhere, "/profile"), "/profile", String(elsewhere));
    }
  });
});
