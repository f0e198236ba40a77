// The pages' body bounds (server/http/body-bounds.ts): each call's largest valid input, with every
// character of every string written as a JSON `\uXXXX` escape (the longest a client may send
// it), passes the call's input check and fits the call's bound; the table names real calls.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { IMPORT_BATCH_SIZE, IMPORT_CHECK_SIZE } from "../../clients/typescript/src/csv-rows";
import { appRouter } from "../../server/api/root";
import { MAX_REVIEWED } from "../../server/teams/draftReview";
import {
  PAGES_BODY_BOUNDS,
  PAGES_MAX_BODY_BYTES,
  pagesBodyBound,
  SMALL_BODY_BYTES,
} from "../../server/http/body-bounds";
import { styleField } from "../../server/library/validation";
import { MAX_LOGO_BYTES } from "../../server/images/qrStyle";
import { EVENT_TYPES } from "../../server/webhooks/event-types";
import { escapedJson } from "../escaped-json";

type Schema = { safeParse(value: unknown): { success: boolean; error?: unknown } };
/** The router's procedures by dotted path (flat at run time, typed as the nested record). */
const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { inputs: Schema[] } }>;
const inputOf = (path: string) => procedures[path]._def.inputs[0];

/** The input is valid for the call (`checked`: the part its schema leaves to the domain), and escaped it fits the call's bound, in a batch of one. */
function assertFits(path: string, input: unknown, [schema, checked]: [Schema, unknown] = [inputOf(path), input]) {
  const parsed = schema.safeParse(checked);
  assert.ok(parsed.success, `${path}: ${JSON.stringify(parsed.error)}`);
  const size = Buffer.byteLength(escapedJson({ 0: input }));
  assert.ok(size <= pagesBodyBound(path), `${path}: ${size} bytes over its bound of ${pagesBodyBound(path)}`);
}

const URL_AT_LIMIT = `https://example.com/${"a".repeat(2048 - 20)}`;
const NAME_AT_LIMIT = "😀".repeat(200);
/** A PNG header (what the schema reads) and bytes up to the logo's limit. */
const LOGO_AT_LIMIT = (() => {
  const prefix = "data:image/png;base64,";
  const header = Buffer.from("89504e470d0a1a0a0000000d4948445200000040000000400806000000", "hex");
  const bytes = Math.floor((MAX_LOGO_BYTES - prefix.length) / 4) * 3;
  return prefix + Buffer.concat([header, Buffer.alloc(bytes - header.length, 0x61)]).toString("base64");
})();
const STYLE_AT_LIMIT = {
  foreground: "#000000",
  background: "#ffffff",
  error_correction: "H",
  margin: 16,
  module_shape: "rounded",
  finder_shape: "rounded",
  finder_color: "#000000",
  logo: LOGO_AT_LIMIT,
  logo_size: 8,
  frame: { text: "Ä".repeat(24), color: "#000000" },
};

describe("the pages' body bounds", () => {
  it("name only calls of the pages' router, and none above the edge's 4 MiB", () => {
    for (const path of Object.keys(PAGES_BODY_BOUNDS)) assert.ok(path in procedures, path);
    for (const path of Object.keys(procedures))
      assert.ok(pagesBodyBound(path) <= PAGES_MAX_BODY_BYTES && pagesBodyBound(path) % 1024 === 0, path);
    assert.equal(pagesBodyBound("library.create"), 16 * 1024, "a create takes a name and a URL");
    assert.equal(pagesBodyBound("libraryImport.check"), PAGES_MAX_BODY_BYTES);
  });

  it("fit each call's largest valid input, every character escaped", () => {
    assert.ok(
      LOGO_AT_LIMIT.length <= MAX_LOGO_BYTES && LOGO_AT_LIMIT.length > MAX_LOGO_BYTES - 4,
      String(LOGO_AT_LIMIT.length),
    );
    assertFits("library.create", { scope: "personal", kind: "static", name: NAME_AT_LIMIT, url: URL_AT_LIMIT });
    assertFits("library.createMany", { scope: "personal", kind: "static", lines: "é".repeat(100_000) });
    assertFits("library.update", {
      scope: "personal",
      updatedAt: "2026-11-26T13:00:00.000Z",
      patch: {
        code: "AbCdEf12",
        destination_url: URL_AT_LIMIT,
        name: NAME_AT_LIMIT,
        status: "paused",
        style: STYLE_AT_LIMIT,
        expires_at: 9_999_999_999,
        expired_url: URL_AT_LIMIT,
        targets: Array.from({ length: 20 }, () => ({
          url: URL_AT_LIMIT,
          os: "Chromium OS",
          device: "desktop",
          country: "DE",
        })),
        utm: {
          source: "s".repeat(100),
          medium: "m".repeat(100),
          campaign: "c".repeat(100),
          term: "t".repeat(100),
          content: "x".repeat(100),
        },
        password: "p".repeat(128),
        metadata: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i}`.padEnd(40, "k"), "v".repeat(500)])),
        external_id: "😀".repeat(200),
      },
    });
    for (const path of ["library.previewStyle", "library.saveStyle"])
      assertFits(path, { scope: "personal", kind: "dynamic", id: "c".repeat(25), style: STYLE_AT_LIMIT }, [
        styleField,
        STYLE_AT_LIMIT,
      ]);
    const webhook = { url: URL_AT_LIMIT, events: [...EVENT_TYPES], description: "d".repeat(500) };
    assertFits("webhooks.create", { scope: "personal", body: webhook });
    assertFits("webhooks.update", {
      scope: "personal",
      body: { webhook_id: "wh_0123456789abcdefghijk", ...webhook, enabled: true },
    });
    const row = (i: number) => ({ line: i + 2, name: NAME_AT_LIMIT, url: URL_AT_LIMIT, status: "paused" });
    assertFits("libraryImport.batch", {
      scope: "personal",
      kind: "dynamic",
      file: "f".repeat(64),
      position: 0,
      rows: Array.from({ length: IMPORT_BATCH_SIZE }, (_, i) => row(i)),
    });
    assertFits("team.review", {
      decision: "reject",
      items: Array.from({ length: MAX_REVIEWED }, () => ({ kind: "dynamic", id: "c".repeat(25) })),
      reason: "r".repeat(500),
    });
  });

  it("the import check's 1,000 rows at the limits, as the browser sends them (unescaped), fit its 4 MiB", () => {
    const rows = Array.from({ length: IMPORT_CHECK_SIZE }, (_, i) => ({
      line: i + 2,
      name: NAME_AT_LIMIT,
      url: URL_AT_LIMIT,
      status: "paused",
    }));
    const body = JSON.stringify({ 0: { scope: "personal", kind: "dynamic", rows } });
    assert.ok(inputOf("libraryImport.check").safeParse({ scope: "personal", kind: "dynamic", rows }).success);
    assert.ok(Buffer.byteLength(body) <= pagesBodyBound("libraryImport.check"), `${Buffer.byteLength(body)} bytes`);
  });

  it("a batch's bound is its calls' added up, at most 4 MiB", () => {
    assert.equal(pagesBodyBound("library.create,library.page"), pagesBodyBound("library.create") + SMALL_BODY_BYTES);
    assert.equal(pagesBodyBound("library.update,library.update"), 2 * pagesBodyBound("library.update"));
    assert.equal(pagesBodyBound(Array(9).fill("library.update").join(",")), PAGES_MAX_BODY_BYTES);
    assert.equal(pagesBodyBound("no.such"), SMALL_BODY_BYTES);
  });
});
