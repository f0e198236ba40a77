// What the service sends for a destination: the WHATWG serialisation, also a URI by RFC 3986.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  leadsToShortLink,
  ownHostOfBase,
  ownHostOfHeader,
  parsedHttpUrl,
  sendableUrl,
  serialisedUrl,
  shortLinkCodeOf,
} from "../../server/platform/urls";

const sent = (raw: string) => serialisedUrl(parsedHttpUrl(raw)!, raw);
// RFC 3986's URI, in the shape ajv-formats checks `format: uri` by: only these ASCII characters, escapes whole.
const RFC3986 = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

test("non-ASCII becomes punycode and UTF-8 escapes; no root slash is added", () => {
  assert.equal(sent("https://bücher.example/ä?q=ü"), "https://xn--bcher-kva.example/%C3%A4?q=%C3%BC");
  assert.equal(sent("https://example.com"), "https://example.com");
  assert.equal(sent("https://example.com/"), "https://example.com/");
});

test("ASCII that RFC 3986 does not allow raw is escaped in path, query and fragment, nowhere else", () => {
  assert.equal(
    sent("https://example.com/a|b^c{d}e`f[g]?x=|^{}[]`#h|i"),
    "https://example.com/a%7Cb%5Ec%7Bd%7De%60f%5Bg%5D?x=%7C%5E%7B%7D%5B%5D%60#h%7Ci",
  );
  assert.equal(sent("https://example.com/100%?p=5%&q=%41"), "https://example.com/100%25?p=5%25&q=%41");
  assert.equal(sent("https://[::1]:8443/x"), "https://[::1]:8443/x");
  for (const raw of [
    "https://example.com/a|b",
    "https://example.com/?q=a b",
    "https://example.com/%zz",
    "https://ü.example/{x}#[y]",
  ]) {
    assert.match(sent(raw), RFC3986, raw);
    assert.equal(sendableUrl(raw), sent(raw), `a stored ${raw} is sent as a new one would be`);
  }
});

test("a stored URL that is already serialised is sent as it is", () => {
  for (const stored of ["https://example.com/menu?a=1&b=%20", "http://xn--bcher-kva.example/%C3%A4"])
    assert.equal(sendableUrl(stored), stored);
});

// The redirect-loop rule: a destination may not lead to this service's own short links, in any
// spelling the server would route to one (server/platform/urls.ts, shortLinkCodeOf and leadsToShortLink).
const own = [ownHostOfBase("https://qr.example")!, ownHostOfBase("https://links.example:8443/go/")!];
const loops = (raw: string) => leadsToShortLink(parsedHttpUrl(raw)!, own);

test("every spelling the server routes to /q/<code> is a short link; other paths are not", () => {
  for (const path of [
    "/q/AbCd1234",
    "/q/AbCd1234?x=1",
    "//q/AbCd1234",
    "/q/AbCd1234/",
    "/Q/AbCd1234",
    "/q/../q/AbCd1234",
    "/%71/AbCd1234",
    "/%2571/AbCd1234",
    "\\q\\AbCd1234",
    "/./q/AbCd1234",
  ]) {
    assert.equal(shortLinkCodeOf(path), "AbCd1234", path);
  }
  for (const path of ["/q", "/q/", "/q/a/b", "/qr/AbCd1234", "/v1/q/AbCd1234", "/"])
    assert.equal(shortLinkCodeOf(path), null, path);
});

test("a destination loops when it reaches an own host (same port, under its path) and is routed to a short link there", () => {
  for (const raw of [
    "https://qr.example/q/AbCd1234",
    "https://QR.example./q/AbCd1234",
    "http://qr.example/Q/AbCd1234",
    "https://qr.example:443/%71/x",
    "https://links.example:8443/go/q/AbCd1234",
    "https://links.example:8443/go//q/x/",
  ]) {
    assert.equal(loops(raw), true, raw);
  }
  for (const raw of [
    "https://qr.example/menu",
    "https://qr.example:8080/q/AbCd1234",
    "https://other.example/q/AbCd1234",
    "https://links.example:8443/q/AbCd1234",
    "https://links.example/go/q/AbCd1234",
    "https://qr.example.evil/q/x",
  ]) {
    assert.equal(loops(raw), false, raw);
  }
});

test("loopback addresses are one host, whichever spelling: a service on localhost is reached through 127.1 too", () => {
  const local = [ownHostOfHeader("localhost:3000")!];
  for (const raw of [
    "http://127.0.0.1:3000/q/x",
    "http://127.1:3000/q/x",
    "http://[::1]:3000/q/x",
    "http://0x7f000001:3000/q/x",
    "http://app.localhost:3000/q/x",
  ]) {
    assert.equal(leadsToShortLink(parsedHttpUrl(raw)!, local), true, raw);
  }
  assert.equal(leadsToShortLink(parsedHttpUrl("http://127.0.0.1:3001/q/x")!, local), false);
  assert.equal(ownHostOfHeader("qr.example/path"), null, "a Host header is a host and a port only");
});
