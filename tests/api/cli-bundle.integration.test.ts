// `qr-records bundle export|import` against the running server: the library out to a file, back
// in (already there: nothing created), into another account (409: the taken code's line, nothing
// written), and a hand-made file into an empty library.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { createDynamicCodes } from "../../server/library/dynamicCodes";
import { cli, dir } from "../cli-runner";
import { personalKey } from "../helpers";

describe("qr-records bundle", () => {
  it("exports the library to a file and imports it, all or nothing, nothing twice", async () => {
    const { user, key } = await personalKey();
    const actor = { userId: user.id, library: { kind: "personal" as const, userId: user.id } };
    const [dyn] = await createDynamicCodes(actor, [{ destination_url: "https://example.com/cli", name: "CLI" }]);
    const file = path.join(dir, "library.ndjson");
    const out = await cli(["bundle", "export", "--out", file], key);
    assert.equal(out.code, 0, out.stderr);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { type: string }).type),
      ["bundle", "dynamic"],
    );

    const again = await cli(["bundle", "import", file], key);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(
      again.stdout,
      `${file}: 0 static, 0 dynamic codes and 0 scans imported; already there: 0 static, 1 dynamic codes and 0 scans\n`,
    );

    const other = await personalKey();
    const taken = await cli(["bundle", "import", file], other.key);
    assert.equal(taken.code, 1);
    assert.match(
      taken.stderr,
      new RegExp(`1 problem in the bundle: line 2: code ${dyn.code} is already taken \\(HTTP 409`),
    );

    const hand = path.join(dir, "hand.ndjson");
    writeFileSync(
      hand,
      '{"type": "bundle", "version": 1}\n{"type": "static", "url": "https://example.com/h", "name": "H"}\n',
    );
    const made = await cli(["bundle", "import", hand], other.key);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /: 1 static, 0 dynamic codes and 0 scans imported;/);
    const usage = await cli(["bundle", "import"], other.key);
    assert.equal(usage.code, 1);
    assert.match(usage.stderr, /^bundle takes export \[--out FILE\], or import and a file/);
  });
});
