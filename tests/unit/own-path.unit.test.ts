// Where log-in and sign-up go afterwards (an invitation's link brings them back to it): only
// our own paths, never another site (an open redirect), however the address is spelled.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ownPath } from "../../components/account/ownPath";

describe("ownPath", () => {
  it("keeps our own paths", () => {
    assert.equal(ownPath("/invite/AbC123", "/profile"), "/invite/AbC123");
    assert.equal(ownPath("/business?x=1", "/profile"), "/business?x=1");
    assert.equal(ownPath("/library#top", "/profile"), "/library#top");
    // Returned as parsed: what the browser will follow is what was checked.
    assert.equal(ownPath("/a/../library", "/profile"), "/library");
    assert.equal(ownPath("/%5Cevil.example", "/profile"), "/%5Cevil.example");
  });

  it("refuses anything that leaves the site, in every spelling a browser reads as another host", () => {
    const elsewhere = [
      undefined,
      "",
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "\\\\evil.example",
      "javascript:alert(1)",
      "invite/x",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "\t//evil.example",
      "/\\\tevil.example",
      "/.//evil.example",
      "/x/..//evil.example",
      "/%2e//evil.example",
      " //evil.example",
      "/\\/evil.example",
      "///evil.example",
      "http:evil.example",
      "JaVaScRiPt:alert(1)",
      "data:text/html,x",
    ];
    for (const path of elsewhere) assert.equal(ownPath(path, "/profile"), "/profile", JSON.stringify(path));
  });
});
