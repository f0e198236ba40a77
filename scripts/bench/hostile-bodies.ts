// The hostile requests of issue 37 (tests/api/hostile.integration.test.ts and the bench's "hostile"
// section): the largest body each route of both edges accepts (/v1: 1 MiB; the pages' tRPC
// endpoint: each call's bound, server/http/body-bounds.ts; pasted lines: 100,000 characters; an
// SVG logo: 64 KiB), filled with what costs the most to check. Each names the statuses a
// correct server answers.
import { pagesBodyBound } from "../../server/http/body-bounds";

export type HostileRequest = {
  name: string;
  edge: "v1" | "pages";
  method: "POST" | "PATCH";
  path: string;
  body: string;
  expect: number[];
};

const V1_MAX = 1024 * 1024;

/** `unit` repeated so that `JSON.stringify(make(filler))` stays just under `bytes` (UTF-8). */
function filled(bytes: number, unit: string, make: (filler: string) => unknown): string {
  const empty = Buffer.byteLength(JSON.stringify(make("")));
  const perUnit = Buffer.byteLength(JSON.stringify(unit)) - 2;
  return JSON.stringify(make(unit.repeat(Math.floor((bytes - empty - 64) / perUnit))));
}

/** Items repeated while the body stays under `bytes`. */
function many(bytes: number, item: unknown, make: (items: unknown[]) => unknown): string {
  const each = Buffer.byteLength(JSON.stringify(item)) + 1;
  const count = Math.floor((bytes - Buffer.byteLength(JSON.stringify(make([]))) - 64) / each);
  return JSON.stringify(make(Array.from({ length: count }, () => item)));
}

/** A URL at the limits: 2,021 characters as sent (2,028 once the host is punycode), a host to encode and a path of escapes to decode (the loop rule). */
const LONG_URL = `https://bücher.example/${"%C3%BC".repeat(333)}`;
/** An SVG logo of 64 KiB whose markup every check must read to its end (a fragment href on every element). */
const SVG_LOGO = `data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#000"/>${` <g href='#'></g>`.repeat(2850)}</svg>`).toString("base64")}`;
const nested = (depth: number) => `{"url":${"[".repeat(depth)}${"]".repeat(depth)}}`;

/** Every hostile request; `code`: a dynamic code of the caller's (PATCH, the style preview). */
export function hostileBodies(code: string): HostileRequest[] {
  const v1 = (name: string, method: "POST" | "PATCH", path: string, body: string, expect = [400]): HostileRequest => ({
    name,
    edge: "v1",
    method,
    path: `/v1${path}`,
    body,
    expect,
  });
  const pages = (name: string, procedure: string, body: string, expect = [400]): HostileRequest => ({
    name,
    edge: "pages",
    method: "POST",
    path: `/api/trpc/${procedure}`,
    body,
    expect,
  });
  return [
    v1(
      "static url of 1 MiB",
      "POST",
      "/qrcodes",
      filled(V1_MAX, "a", (f) => ({ url: `https://example.com/${f}`, name: "x" })),
    ),
    v1(
      "static url of 1 MiB, non-ASCII",
      "POST",
      "/qrcodes",
      filled(V1_MAX, "ü", (f) => ({ url: `https://bücher.example/${f}`, name: "x" })),
    ),
    v1(
      "static name of 1 MiB of emoji",
      "POST",
      "/qrcodes",
      filled(V1_MAX, "😀", (f) => ({ url: "https://example.com/", name: f })),
    ),
    v1(
      "static frame text of 1 MiB",
      "POST",
      "/qrcodes",
      filled(V1_MAX, "😀", (f) => ({
        url: "https://example.com/",
        name: "x",
        style: { frame: { text: f, color: "#000000" } },
      })),
    ),
    v1(
      "static SVG logo of 64 KiB",
      "POST",
      "/qrcodes",
      JSON.stringify({ url: "https://example.com/", name: "x", style: { logo: SVG_LOGO } }),
      [201, 400],
    ),
    v1(
      "static batch of empty items",
      "POST",
      "/qrcodes/batch",
      many(V1_MAX, {}, (items) => ({ qrcodes: items })),
    ),
    v1(
      "static batch of long non-ASCII URLs",
      "POST",
      "/qrcodes/batch",
      JSON.stringify({
        qrcodes: Array.from({ length: 50 }, () => ({ url: `https://bücher.example/${"ü".repeat(9_000)}`, name: "x" })),
      }),
    ),
    v1(
      "dynamic batch of URLs at the limit, 20 targets each",
      "POST",
      "/dynqrcodes/batch",
      many(
        V1_MAX,
        {
          destination_url: LONG_URL,
          name: "n",
          targets: Array.from({ length: 20 }, () => ({ url: LONG_URL, os: "iOS" })),
        },
        (items) => ({ dynqrcodes: items.slice(0, 50) }),
      ),
      [201],
    ),
    v1(
      "dynamic with targets by the hundred thousand",
      "POST",
      "/dynqrcodes",
      many(V1_MAX, {}, (items) => ({ destination_url: "https://example.com/", name: "x", targets: items })),
    ),
    v1(
      "dynamic expired_url of 1 MiB",
      "POST",
      "/dynqrcodes",
      filled(V1_MAX, "ü", (f) => ({
        destination_url: "https://example.com/",
        name: "x",
        expired_url: `https://example.com/${f}`,
      })),
    ),
    v1(
      "PATCH destination_url of 1 MiB",
      "PATCH",
      `/dynqrcodes/${code}`,
      filled(V1_MAX, "a", (f) => ({ destination_url: `https://example.com/${f}` })),
    ),
    v1(
      "webhook url of 1 MiB",
      "POST",
      "/webhooks",
      filled(V1_MAX, "a", (f) => ({ url: `https://example.com/${f}`, events: ["scan.created"] })),
    ),
    v1("JSON nested half a million deep", "POST", "/qrcodes", nested((V1_MAX - 100) >> 1)),
    pages(
      "pages: create with a URL at its bound",
      "library.create",
      filled(pagesBodyBound("library.create"), "a", (f) => ({
        scope: "personal",
        kind: "static",
        name: "x",
        url: `https://example.com/${f}`,
      })),
    ),
    pages(
      "pages: pasted lines of spaces",
      "library.createMany",
      JSON.stringify({ scope: "personal", kind: "static", lines: `a${" ".repeat(99_998)}x` }),
    ),
    pages(
      "pages: pasted lines of commas",
      "library.createMany",
      JSON.stringify({ scope: "personal", kind: "static", lines: "a,".repeat(50_000) }),
    ),
    pages(
      "pages: update with a URL at its bound",
      "library.update",
      filled(pagesBodyBound("library.update"), "ü", (f) => ({
        scope: "personal",
        patch: { code, destination_url: `https://example.com/${f}` },
      })),
    ),
    pages(
      "pages: import check of 1,000 rows at the limits",
      "libraryImport.check",
      JSON.stringify({
        scope: "personal",
        kind: "dynamic",
        rows: Array.from({ length: 1000 }, (_, i) => ({ line: i + 2, name: "😀".repeat(200), url: LONG_URL })),
      }),
      [200],
    ),
    pages(
      "pages: import check of empty rows by the hundred thousand",
      "libraryImport.check",
      many(pagesBodyBound("libraryImport.check"), { line: 1, name: "", url: "" }, (rows) => ({
        scope: "personal",
        kind: "static",
        rows,
      })),
    ),
    pages(
      "pages: style preview with a frame text at its bound",
      "library.previewStyle",
      filled(pagesBodyBound("library.previewStyle"), "😀", (f) => ({
        scope: "personal",
        kind: "dynamic",
        id: code,
        style: { frame: { text: f, color: "#000000" } },
      })),
      [200],
    ),
    pages(
      "pages: webhook url at its bound",
      "webhooks.create",
      filled(pagesBodyBound("webhooks.create"), "a", (f) => ({
        scope: "personal",
        body: { url: `https://example.com/${f}`, events: ["scan.created"] },
      })),
    ),
    pages(
      "pages: JSON nested two million deep",
      "libraryImport.check",
      nested((pagesBodyBound("libraryImport.check") - 100) >> 1),
    ),
    pages(
      "pages: a body over its call's bound",
      "library.update",
      filled(pagesBodyBound("library.update") + 1024, "a", (f) => ({
        scope: "personal",
        patch: { code, destination_url: `https://example.com/${f}` },
      })),
      [413],
    ),
  ];
}
