// URLs as the world writes them (issue 37, points 2 and 3): every URL the service sends is the
// WHATWG serialisation (records, Location, exports, QR payloads), rows stored before the rule
// included; the 2048 limit judges the raw string and the serialisation; and the redirect-loop
// rule refuses every spelling of the service's own short links, the way the server routes them.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { generateKey } from "../../server/keys/apiKeys";
import { createDynamicCodes } from "../../server/library/dynamicCodes";
import { createStaticCodes } from "../../server/library/staticCodes";
import { BASE_URL, http, logIn, makeUser, personalKey, TEST_PASSWORD } from "../helpers";
import { decodePng } from "../qr-decode";

const RAW = "https://bücher.example/ä?q=ü";
const SERIALISED = "https://xn--bcher-kva.example/%C3%A4?q=%C3%BC";
const LOOP = "must not point to this service's own /q/ short links";
const { host, port } = new URL(BASE_URL);

describe("URLs as the world writes them", () => {
  it("a non-ASCII destination is stored, echoed and sent in Location as its WHATWG serialisation", async () => {
    const { key } = await personalKey();
    const created = await http("POST", "/v1/dynqrcodes", {
      key,
      json: {
        destination_url: RAW,
        name: "Bücher",
        expired_url: "https://bücher.example/ende",
        targets: [{ url: "https://bücher.example/ios?ü", os: "iOS" }],
      },
    });
    assert.equal(created.status, 201, created.text);
    const record = (
      created.body as {
        created: { code: string; destination_url: string; expired_url: string; targets: { url: string }[] }[];
      }
    ).created[0];
    assert.equal(record.destination_url, SERIALISED);
    assert.equal(record.expired_url, "https://xn--bcher-kva.example/ende");
    assert.equal(record.targets[0].url, "https://xn--bcher-kva.example/ios?%C3%BC");
    const scan = await fetch(`${BASE_URL}/q/${record.code}`, { redirect: "manual" });
    assert.equal(scan.status, 302);
    assert.equal(scan.headers.get("location"), SERIALISED);
    // PATCH serialises too; the export carries the serialisation.
    const patched = await http("PATCH", `/v1/dynqrcodes/${record.code}`, {
      key,
      json: { destination_url: "https://例え.テスト/パス?キー=値#frag ment" },
    });
    assert.equal(
      (patched.body as { destination_url: string }).destination_url,
      "https://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9?%E3%82%AD%E3%83%BC=%E5%80%A4#frag%20ment",
    );
    const exported = await http("GET", "/v1/dynqrcodes/export", { key });
    assert.ok(exported.text.includes("https://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9"), exported.text);
    assert.ok(
      !/[^\x00-\x7f]/.test(
        exported.text
          .split("\n")
          .slice(1)
          .join("\n")
          .replace(/Bücher/g, ""),
      ),
      exported.text,
    );
  });

  it("what the caller wrote is echoed in its serialised form, without a root slash it did not write", async () => {
    const { key } = await personalKey();
    const cases: [string, string][] = [
      ["https://example.com", "https://example.com"],
      ["https://example.com/", "https://example.com/"],
      ["HTTPS://Example.COM?x=1", "https://example.com?x=1"],
      ["https://example.com:443/a b", "https://example.com/a%20b"],
      ["https://example.com/a/./b/../c", "https://example.com/a/c"],
      ["https://example.com\\path", "https://example.com/path"],
      // Raw in WHATWG, not in RFC 3986 (the document's format: uri): escaped too.
      ["https://example.com/a|b?q={x}^&p=5%", "https://example.com/a%7Cb?q=%7Bx%7D%5E&p=5%25"],
    ];
    const created = await http("POST", "/v1/qrcodes/batch", {
      key,
      json: { qrcodes: cases.map(([url], i) => ({ url, name: `case ${i}` })) },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(
      (created.body as { created: { url: string }[] }).created.map((r) => r.url),
      cases.map(([, echoed]) => echoed),
    );
  });

  it("the 2048 limit: raw input over it is refused unparsed, and so is a serialisation over it", async () => {
    const { key } = await personalKey();
    const tooLong = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: `https://example.com/${"a".repeat(2029)}`, name: "x" },
    });
    assert.deepEqual(
      [tooLong.status, tooLong.body],
      [400, { error: "destination_url must be at most 2048 characters" }],
    );
    // 1,000 characters as sent, 6,000 once encoded.
    const grows = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: `https://example.com/${"ü".repeat(1000)}`, name: "x" },
    });
    assert.equal(grows.status, 400);
    assert.match(
      (grows.body as { error: string }).error,
      /^destination_url must be at most 2048 characters once encoded/,
    );
    const fits = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: `https://example.com/${"ü".repeat(300)}`, name: "x" },
    });
    assert.equal(fits.status, 201);
  });

  it("rows stored before the rule (raw non-ASCII) are sent serialised: Location, records, exports, QR payloads", async () => {
    const user = await makeUser();
    const actor = { userId: user.id, library: { kind: "personal" as const, userId: user.id } };
    // The domain's create takes what the schemas gave: raw text stands for a row of before.
    const [dynamic] = await createDynamicCodes(actor, [{ name: "old", destination_url: RAW }]);
    const [stat] = await createStaticCodes(actor, [{ name: "old static", url: RAW }]);
    const scan = await fetch(`${BASE_URL}/q/${dynamic.code}`, { redirect: "manual" });
    assert.equal(scan.headers.get("location"), SERIALISED);
    const { key } = await generateKey(user.id, "personal");
    const list = await http("GET", "/v1/qrcodes", { key });
    assert.equal((list.body as { qrcodes: { url: string }[] }).qrcodes[0].url, SERIALISED);
    const png = await http("GET", `/v1/qrcodes/${stat.qr_id}/image?format=png&size=512`, { key });
    assert.equal(png.status, 200);
    assert.equal(await decodePng(png.bytes), SERIALISED);
    const exported = await http("GET", "/v1/qrcodes/export", { key });
    assert.ok(exported.text.includes(SERIALISED) && !exported.text.includes("bücher"), exported.text);
  });
});

describe("the redirect-loop rule cannot be walked around", () => {
  const spellings = [
    `${BASE_URL}/q/abc`,
    `${BASE_URL}//q/abc`,
    `${BASE_URL}/q//abc`,
    `${BASE_URL}/q/abc/`,
    `${BASE_URL}/Q/abc`,
    `${BASE_URL}/q/../q/abc`,
    `${BASE_URL}/x/%2e%2e/q/abc`,
    `${BASE_URL}/./q/abc`,
    `${BASE_URL}/%71/abc`,
    `${BASE_URL}/%2571/abc`,
    `${BASE_URL}/q%2Fabc`,
    `${BASE_URL}\\q\\abc`,
    `${BASE_URL}/q/abc?x=1#y`,
    `HTTP://${host.toUpperCase()}/q/abc`,
    `http://127.0.0.1.:${port}/q/abc`,
    `http://localhost:${port}/q/abc`,
    `http://LOCALHOST.:${port}/q/abc`,
    `http://app.localhost:${port}/q/abc`,
    `http://[::1]:${port}/q/abc`,
    `http://[0:0:0:0:0:0:0:1]:${port}/q/abc`,
    `http://[::ffff:127.0.0.1]:${port}/q/abc`,
    `http://2130706433:${port}/q/abc`,
    `http://0x7f.1:${port}/q/abc`,
    `http://127.1:${port}/q/abc`,
    `http://0177.0.0.1:${port}/q/abc`,
    `http://127.0.0.2:${port}/q/abc`,
    `http://0.0.0.0:${port}/q/abc`,
    `http://%6c%6f%63%61%6c%68%6f%73%74:${port}/q/abc`,
  ];

  it("every spelling of a short link on the service's own base URL is refused, on every destination field of /v1", async () => {
    const { key } = await personalKey();
    for (const url of spellings) {
      const statics = await http("POST", "/v1/qrcodes", { key, json: { url, name: "loop" } });
      assert.deepEqual([statics.status, statics.body], [400, { error: `url ${LOOP}` }], url);
      const dynamic = await http("POST", "/v1/dynqrcodes", {
        key,
        json: { destination_url: "https://example.com/", name: "loop", expired_url: url },
      });
      assert.deepEqual([dynamic.status, dynamic.body], [400, { error: `expired_url ${LOOP}` }], url);
      const target = await http("POST", "/v1/dynqrcodes/batch", {
        key,
        json: {
          dynqrcodes: [
            { destination_url: "https://example.com/", name: "ok" },
            { destination_url: "https://example.com/", name: "loop", targets: [{ url, os: "iOS" }] },
          ],
        },
      });
      assert.deepEqual(
        [target.status, target.body],
        [400, { errors: [{ index: 1, error: `targets[0].url ${LOOP}` }] }],
        url,
      );
    }
    assert.deepEqual((await http("GET", "/v1/dynqrcodes", { key })).body, { dynqrcodes: [], next_cursor: null });
  });

  it("a code cannot be made to redirect to itself: PATCH and the pages refuse it however spelled", async () => {
    const { user, key } = await personalKey();
    const created = await http("POST", "/v1/dynqrcodes", {
      key,
      json: { destination_url: "https://example.com/", name: "self" },
    });
    const code = (created.body as { created: { code: string }[] }).created[0].code;
    const page = await logIn(user.email, TEST_PASSWORD);
    for (const spelling of spellings) {
      const url = spelling.replace("abc", code);
      const patched = await http("PATCH", `/v1/dynqrcodes/${code}`, { key, json: { destination_url: url } });
      assert.deepEqual([patched.status, patched.body], [400, { error: `destination_url ${LOOP}` }], url);
      await assert.rejects(
        page("library.update", { scope: "personal", patch: { code, destination_url: url } }),
        /must not point to this service's own \/q\/ short links/,
        url,
      );
      await assert.rejects(
        page("library.create", { scope: "personal", kind: "dynamic", name: "loop", url }),
        /must not point to this service's own \/q\/ short links/,
        url,
      );
    }
    const scan = await fetch(`${BASE_URL}/q/${code}`, { redirect: "manual" });
    assert.equal(scan.headers.get("location"), "https://example.com/");
  });

  it("the hosts a request reached count too, with their trailing dots and default ports (X-Forwarded-Host)", async () => {
    const { key } = await personalKey();
    const forwarded = { "x-forwarded-host": "qr.example.net" };
    for (const url of [
      "https://qr.example.net/q/abc",
      "http://qr.example.net:80//q/abc",
      "https://QR.example.net.:443/Q/abc/",
      "http://qr.example.net./%71/abc",
    ]) {
      const refused = await http("POST", "/v1/qrcodes", { key, json: { url, name: "loop" }, headers: forwarded });
      assert.deepEqual([refused.status, refused.body], [400, { error: `url ${LOOP}` }], url);
    }
    // Another port of that host, another path, and the host itself without the header: not this service's short links.
    for (const [url, headers] of [
      ["https://qr.example.net:8443/q/abc", forwarded],
      ["https://qr.example.net/qr/abc", forwarded],
      ["https://qr.example.net/q/abc", {}],
      [`http://127.0.0.1:${Number(port) + 1}/q/abc`, {}],
      [`${BASE_URL}/q/`, {}],
      [`${BASE_URL}/q/abc/def`, {}],
    ] as const) {
      const accepted = await http("POST", "/v1/qrcodes", { key, json: { url, name: "fine" }, headers });
      assert.equal(accepted.status, 201, `${url} ${accepted.text}`);
    }
  });

  it("the server routes those spellings to the short link (a 308 to /q/<code>): what the rule refuses is what it routes", async () => {
    // (fetch resolves dot segments itself before it sends a path.)
    for (const path of ["//q/abc", "/q/abc/", "/Q/abc", "/%71/abc", "/q%2Fabc", "/q//abc?x=1"]) {
      const res = await fetch(`${BASE_URL}${path}`, { redirect: "manual" });
      assert.equal(res.status, 308, path);
      assert.equal(res.headers.get("location"), path.endsWith("?x=1") ? "/q/abc?x=1" : "/q/abc", path);
    }
    // Not a short link: Next answers, and no 308 to /q/.
    const other = await fetch(`${BASE_URL}/qr/abc`, { redirect: "manual" });
    assert.notEqual(other.headers.get("location")?.startsWith("/q/"), true);
  });
});
