// What the service sends for a destination: the WHATWG serialisation, also a URI by RFC 3986.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parsedHttpUrl, sendableUrl, serialisedUrl } from "../../server/urls";

const sent = (raw: string) => serialisedUrl(parsedHttpUrl(raw)!, raw);
// RFC 3986's URI, in the shape ajv-formats checks `format: uri` by: only these ASCII characters, escapes whole.
const RFC3986 = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

test("non-ASCII becomes punycode and UTF-8 escapes; no root slash is added", () => {
  assert.equal(sent("https://bücher.example/ä?q=ü"), "https://xn--bcher-kva.example/%C3%A4?q=%C3%BC");
  assert.equal(sent("https://example.com"), "https://example.com");
  assert.equal(sent("https://example.com/"), "https://example.com/");
});

test("ASCII that RFC 3986 does not allow raw is escaped in path, query and fragment, nowhere else", () => {
  assert.equal(sent("https://example.com/a|b^c{d}e`f[g]?x=|^{}[]`#h|i"), "https://example.com/a%7Cb%5Ec%7Bd%7De%60f%5Bg%5D?x=%7C%5E%7B%7D%5B%5D%60#h%7Ci");
  assert.equal(sent("https://example.com/100%?p=5%&q=%41"), "https://example.com/100%25?p=5%25&q=%41");
  assert.equal(sent("https://[::1]:8443/x"), "https://[::1]:8443/x");
  for (const raw of ["https://example.com/a|b", "https://example.com/?q=a b", "https://example.com/%zz", "https://ü.example/{x}#[y]"]) {
    assert.match(sent(raw), RFC3986, raw);
    assert.equal(sendableUrl(raw), sent(raw), `a stored ${raw} is sent as a new one would be`);
  }
});

test("a stored URL that is already serialised is sent as it is", () => {
  for (const stored of ["https://example.com/menu?a=1&b=%20", "http://xn--bcher-kva.example/%C3%A4"]) assert.equal(sendableUrl(stored), stored);
});
