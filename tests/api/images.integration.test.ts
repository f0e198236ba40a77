// The image routes: SVG and PNG of a record, drawn with its style, at the asked size, and
// readable: the PNG is decoded back (jsQR) to the record's url or short_url. (The SVG is
// decoded in the browser, e2e/library.spec.ts.) Bad parameters are 400; others' records 404.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { http, logIn, personalKey } from "../helpers";
import { decodePng, pngSize } from "../qr-decode";

describe("QR images", () => {
  it("a static code's image encodes its url; a dynamic code's its short_url; both with the style", async () => {
    const { key } = await personalKey();
    const style = { foreground: "#1a2b3c", background: "#fff8e7", error_correction: "H", margin: 2 };
    const stat = (
      await http("POST", "/v1/qrcodes", { key, json: { url: "https://example.com/menu?table=4", name: "Menu", style } })
    ).body as { created: { qr_id: string }[] };
    const dyn = (
      await http("POST", "/v1/dynqrcodes", { key, json: { destination_url: "https://example.com/d", name: "Dyn" } })
    ).body as { created: { code: string; short_url: string }[] };
    const qrId = stat.created[0].qr_id;
    const { code, short_url } = dyn.created[0];

    const svg = await http("GET", `/v1/qrcodes/${qrId}/image`, { key });
    assert.equal(svg.status, 200);
    assert.equal(svg.headers.get("content-type"), "image/svg+xml");
    assert.match(svg.text, /^<svg [^>]*width="512" height="512"/);
    assert.ok(svg.text.includes('fill="#fff8e7"') && svg.text.includes('fill="#1a2b3c"'), svg.text.slice(0, 300));
    assert.ok(svg.headers.get("x-ratelimit-remaining"), "rate-limit headers on image answers too");

    const png = await http("GET", `/v1/qrcodes/${qrId}/image?format=png&size=300`, { key });
    assert.equal(png.status, 200);
    assert.equal(png.headers.get("content-type"), "image/png");
    assert.deepEqual(pngSize(png.bytes), { width: 300, height: 300 });
    assert.equal(decodePng(png.bytes), "https://example.com/menu?table=4");

    const dynPng = await http("GET", `/v1/dynqrcodes/${code}/image?format=png`, { key });
    assert.deepEqual(pngSize(dynPng.bytes), { width: 512, height: 512 });
    assert.equal(decodePng(dynPng.bytes), short_url);
    const dynSvg = await http("GET", `/v1/dynqrcodes/${code}/image?format=svg&size=64`, { key });
    assert.match(dynSvg.text, /^<svg [^>]*width="64" height="64"/);
    assert.ok(
      dynSvg.text.includes('fill="#ffffff"') && dynSvg.text.includes('fill="#000000"'),
      "default style: black on white",
    );
  });

  it("bad format or size is 400 in the contract's shape; deleted and unknown records are 404", async () => {
    const { key } = await personalKey();
    const dyn = (
      await http("POST", "/v1/dynqrcodes", { key, json: { destination_url: "https://example.com/d", name: "Dyn" } })
    ).body as { created: { code: string }[] };
    const code = dyn.created[0].code;
    for (const [query, error] of [
      ["format=gif", "format must be svg, png or pdf"],
      ["format=", "format must be svg, png or pdf"],
      ["size=63", "size must be an integer from 64 to 2048"],
      ["size=2049", "size must be an integer from 64 to 2048"],
      ["size=12.5", "size must be an integer from 64 to 2048"],
      ["size=abc", "size must be an integer from 64 to 2048"],
    ]) {
      const r = await http("GET", `/v1/dynqrcodes/${code}/image?${query}`, { key });
      assert.equal(r.status, 400, query);
      assert.deepEqual(r.body, { error }, query);
    }
    assert.equal((await http("GET", `/v1/dynqrcodes/${code}/image?size=2048&format=png`, { key })).status, 200);
    assert.deepEqual((await http("GET", "/v1/qrcodes/qr_0000000000000000000000/image", { key })).body, {
      error: "QR code not found",
    });
    assert.equal((await http("DELETE", `/v1/dynqrcodes/${code}`, { key })).status, 200);
    const gone = await http("GET", `/v1/dynqrcodes/${code}/image`, { key });
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.body, { error: "Dynamic QR code not found" });
    assert.equal((await http("POST", `/v1/qrcodes/qr_0000000000000000000000/image`, { key })).status, 405);
  });
});

describe("QR images off the event loop (issue 24)", () => {
  const pngOf = async (key: string, url: string, size = 2048) => {
    const id = (
      (await http("POST", "/v1/qrcodes", { key, json: { url, name: "Big" } })).body as { created: { qr_id: string }[] }
    ).created[0].qr_id;
    return { id, path: `/v1/qrcodes/${id}/image?format=png&size=${size}` };
  };

  it("four keys drawing 2,048 px PNGs at once get readable images, and another key's read is answered meanwhile", async () => {
    const keys = await Promise.all([1, 2, 3, 4].map(() => personalKey()));
    const reader = await personalKey();
    const targets = await Promise.all(keys.map(({ key }, i) => pngOf(key, `https://example.com/big/${i}`)));
    const [pngs, list] = await Promise.all([
      Promise.all(targets.map(({ path }, i) => http("GET", path, { key: keys[i].key }))),
      // Started while the images draw (latency is the bench's business, not the test's).
      new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
        http("GET", "/v1/qrcodes?limit=1", { key: reader.key }),
      ),
    ]);
    assert.equal(list.status, 200);
    for (const [i, png] of pngs.entries()) {
      assert.equal(png.status, 200);
      assert.equal(png.headers.get("content-type"), "image/png");
      assert.deepEqual(pngSize(png.bytes), { width: 2048, height: 2048 });
      assert.equal(decodePng(png.bytes), `https://example.com/big/${i}`);
    }
  });

  it("one key may have only a couple of images drawing at once: the rest are 429 with Retry-After", async () => {
    const { key } = await personalKey();
    const { id } = await pngOf(key, "https://example.com/bound");
    // Six sizes, so that none is answered from the cache.
    const answers = await Promise.all(
      [2043, 2044, 2045, 2046, 2047, 2048].map((size) =>
        http("GET", `/v1/qrcodes/${id}/image?format=png&size=${size}`, { key }),
      ),
    );
    const refused = answers.filter((r) => r.status === 429);
    const drawn = answers.filter((r) => r.status === 200);
    assert.ok(refused.length >= 1 && drawn.length >= 2, answers.map((r) => r.status).join(","));
    assert.equal(refused.length + drawn.length, 6, answers.map((r) => r.status).join(","));
    for (const r of refused) {
      assert.equal(r.headers.get("retry-after"), "1");
      assert.deepEqual(r.body, { error: "Too many images at once for this key: try again in a moment" });
    }
    for (const r of drawn) assert.equal(decodePng(r.bytes), "https://example.com/bound");
    // Once they are done, the key may draw again.
    assert.equal((await http("GET", `/v1/qrcodes/${id}/image?format=png&size=1000`, { key })).status, 200);
  });

  it("the pages' images: a page of SVG thumbnails is never refused; PNGs are bounded per user, 429 with Retry-After", async () => {
    const { user, key } = await personalKey();
    const { id } = await pngOf(key, "https://example.com/pages");
    const page = await logIn(user.email);
    const thumbs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => page.get(`/library/qr/static/${id}?size=96&v=${i}`)),
    );
    assert.deepEqual(
      thumbs.map((r) => r.status),
      Array(20).fill(200),
    );
    const pngs = await Promise.all(
      [2043, 2044, 2045, 2046, 2047, 2048].map((size) =>
        page.get(`/library/qr/static/${id}?format=png&size=${size}&download=1`),
      ),
    );
    const statuses = pngs.map((r) => r.status);
    assert.ok(statuses.includes(429) && statuses.filter((s) => s === 200).length >= 2, statuses.join(","));
    for (const r of pngs.filter((r) => r.status === 429)) {
      assert.equal(r.headers.get("retry-after"), "1");
      assert.equal(await r.text(), "Too many images at once for this key: try again in a moment\n");
    }
    for (const r of pngs.filter((r) => r.status === 200))
      assert.equal(decodePng(Buffer.from(await r.arrayBuffer())), "https://example.com/pages");
  });
});
