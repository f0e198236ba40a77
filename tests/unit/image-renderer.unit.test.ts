// The image renderer's cache and per-key bound (server/images/renderer.ts), in process (the
// pool's threads run the same drawing; the integration tests go through the server).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DomainError } from "../../server/platform/errors";
import { IMAGES_PER_KEY, imageRenderStats, renderImage, type RenderJob } from "../../server/images/renderer";

describe("image renderer", () => {
  it("draws an image once: the same format, size, text and style again comes from the cache", async () => {
    const job: RenderJob = {
      text: "https://example.com/cached",
      style: { foreground: "#112233" },
      size: 128,
      format: "svg",
    };
    const before = imageRenderStats().drawn;
    const first = await renderImage("k-cache", job);
    const again = await renderImage("k-cache", { ...job, style: { foreground: "#112233" } });
    assert.equal(again, first);
    assert.equal(imageRenderStats().drawn, before + 1);
    // Any difference that changes the image is another entry: style, size, format, text.
    await renderImage("k-cache", { ...job, style: { foreground: "#445566" } });
    await renderImage("k-cache", { ...job, size: 129 });
    const png = await renderImage("k-cache", { ...job, format: "png" });
    assert.ok(png instanceof Uint8Array && png[1] === 0x50, "a PNG");
    await renderImage("k-cache", { ...job, text: "https://example.com/other" });
    assert.equal(imageRenderStats().drawn, before + 5);
  });

  it(`one key has at most ${IMAGES_PER_KEY} images drawing at once; other keys are not held back`, async () => {
    const jobs = Array.from({ length: IMAGES_PER_KEY + 2 }, (_, i): RenderJob => ({
      text: `https://example.com/bound/${i}`,
      style: {},
      size: 256,
      format: "png",
    }));
    const answers = await Promise.allSettled(jobs.map((job) => renderImage("k-busy", job)));
    const refused = answers.filter((a) => a.status === "rejected");
    assert.equal(answers.filter((a) => a.status === "fulfilled").length, IMAGES_PER_KEY);
    assert.equal(refused.length, 2);
    for (const a of refused) {
      const error = (a as PromiseRejectedResult).reason as DomainError;
      assert.equal(error.code, "rate_limited");
      assert.equal(error.status, 429);
      assert.deepEqual(error.headers, { "Retry-After": "1" });
      assert.equal(error.message, "Too many images at once for this key: try again in a moment");
    }
    // Done drawing: the key may draw again; another key was never counted against it.
    await renderImage("k-busy", { ...jobs[0], size: 300 });
    await Promise.all(jobs.slice(0, IMAGES_PER_KEY).map((job) => renderImage("k-other", { ...job, size: 301 })));
  });

  it("SVGs (a few milliseconds at any size) are drawn at once, never refused: a page of thumbnails loads", async () => {
    const thumbs = Array.from({ length: 25 }, (_, i): RenderJob => ({
      text: `https://example.com/thumb/${i}`,
      style: {},
      size: 96,
      format: "svg",
    }));
    const svgs = await Promise.all(thumbs.map((job) => renderImage("k-thumbs", job)));
    assert.ok(svgs.every((svg) => typeof svg === "string" && svg.startsWith("<svg")));
  });
});
