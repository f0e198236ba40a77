// A large body decoded a slice per turn (server/http/body.ts) answers what one TextDecoder
// answers, however the slices fall on its characters, and refuses what it refuses; the
// slices of work of a loop of checks (server/platform/event-loop.ts) end once their time is up.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { inSlices } from "../../server/platform/event-loop";
import { utf8Text, utf8TextInTurns } from "../../server/http/body";

/** Every width of UTF-8 character, so that slices of 256 KiB end inside each kind somewhere. */
const MIXED = "a€😀ü".repeat(120_000);

const refusal = (bytes: Buffer) =>
  utf8TextInTurns(bytes).then(
    () => null,
    (error: Error) => error.message,
  );

describe("a large body's text, a slice per turn", () => {
  it("is the whole text, characters cut by no slice, shifted by one to three bytes", async () => {
    for (const lead of ["", "x", "xy", "xyz"]) {
      const bytes = Buffer.from(lead + MIXED);
      assert.ok(bytes.byteLength > 4 * 256 * 1024);
      assert.equal(await utf8TextInTurns(bytes), lead + MIXED);
    }
  });

  it("drops a leading byte-order mark as TextDecoder does", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(MIXED)]);
    assert.equal(await utf8TextInTurns(bytes), utf8Text(bytes));
    assert.equal((await utf8TextInTurns(bytes)).length, MIXED.length);
  });

  it("refuses invalid UTF-8 anywhere, as the small bodies' decoder does", async () => {
    const body = Buffer.from(MIXED);
    const at = body.byteLength - 1000;
    // A stray continuation byte, an overlong "/", an encoded surrogate, a cut character at the end.
    for (const bad of [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
      const bytes = Buffer.concat([body.subarray(0, at), Buffer.from(bad), body.subarray(at)]);
      assert.throws(() => utf8Text(bytes), /not valid UTF-8/);
      assert.equal(await refusal(bytes), "The body is not valid UTF-8");
    }
    assert.equal(await refusal(Buffer.concat([body, Buffer.from([0xf0, 0x9f])])), "The body is not valid UTF-8");
  });

  it("lets a turn of the event loop run between its slices", async () => {
    let turns = 0;
    let decoding = true;
    const count = () => decoding && (turns++, setImmediate(count));
    setImmediate(count);
    await utf8TextInTurns(Buffer.from(MIXED));
    decoding = false;
    assert.ok(turns >= 3, `${turns} turns while 4 slices were decoded`);
  });
});

describe("work in slices", () => {
  it("goes on at once while its time is not up, and polls for I/O once it is", async () => {
    const pause = inSlices(5);
    assert.equal(pause(), undefined);
    const start = performance.now();
    while (performance.now() - start < 6);
    let polled = false;
    setImmediate(() => (polled = true));
    const yielded = pause();
    assert.ok(yielded instanceof Promise);
    await yielded;
    assert.ok(polled);
    assert.equal(pause(), undefined, "a new slice starts after the poll");
  });
});
