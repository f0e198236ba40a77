// Fuzzed image routes (fast-check): records whose URLs lie around each error-correction level's
// capacity (in ASCII and in 2-byte and 3-byte characters), created through the API or, refused
// there, stored directly, drawn at valid and invalid sizes. Property: never a 5xx, and what the API
// accepted draws. Its own server and limiter keys (tests/instances/fuzz-server.ts); the /v1
// requests: fuzz.integration.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { db } from "../../server/platform/db";
import { MAX_BYTES } from "../../server/images/qrImage";
import { timeOrderedId } from "../../server/platform/ids";
import { contractErrorShape } from "../helpers";
import { checkAgainstDocument } from "../document-check";
import { ACCOUNTS, RUNS, SEED, withFuzzServer, type Caller } from "./fuzz-server";

describe("fuzzing /v1: image routes", () => {
  const fuzz = withFuzzServer("fuzz-images:");

  it(`image routes of records with long URLs at every error-correction level: never a 5xx`, async () => {
    const { server, callers } = fuzz;
    const levels = ["L", "M", "Q", "H"] as const;
    // Around each level's capacity, in ASCII and in 2-byte and 3-byte characters.
    const record = fc.record({
      level: fc.constantFrom(...levels),
      offset: fc.integer({ min: -40, max: 40 }),
      unit: fc.constantFrom("a", "é", "名"),
      format: fc.constantFrom("svg", "svg", "png"),
      size: fc.constantFrom("64", "256", "512", "1024", "63", "2049"),
    });
    const runs = Math.max(20, Math.round(RUNS / 10));
    const statuses = new Map<string, number>();
    const paced = async (caller: Caller) => {
      const wait = (lastUse.get(caller.key!) ?? 0) + 210 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      lastUse.set(caller.key!, Date.now());
    };
    const lastUse = new Map<string, number>();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(record, async ({ level, offset, unit, format, size }) => {
        const caller = callers[run++ % ACCOUNTS];
        const prefix = "https://example.com/";
        const bytes = MAX_BYTES[level] + offset - prefix.length;
        const url = prefix + unit.repeat(Math.max(1, Math.floor(bytes / Buffer.byteLength(unit))));
        await paced(caller);
        const created = await fetch(`${server.base}/v1/qrcodes`, {
          method: "POST",
          headers: { "x-api-key": caller.key!, "content-type": "application/json" },
          body: JSON.stringify({ url, name: "long", style: { error_correction: level } }),
        });
        const createdText = await created.text();
        assert.ok(
          [201, 400].includes(created.status),
          `create ${level} ${url.length} chars → ${created.status} ${createdText.slice(0, 200)}`,
        );
        let id: string;
        if (created.status === 201) id = (JSON.parse(createdText) as { created: { qr_id: string }[] }).created[0].qr_id;
        else {
          // A record stored before the capacity rule (or by a SQL console): the image route must still answer in the contract's words.
          id = timeOrderedId("qr");
          await db.staticCode.create({
            data: {
              id,
              userId: caller.userId!,
              createdById: caller.userId!,
              url,
              name: "legacy",
              style: JSON.stringify({ error_correction: level }),
            },
          });
        }
        await paced(caller);
        const image = await fetch(`${server.base}/v1/qrcodes/${id}/image?format=${format}&size=${size}`, {
          headers: { "x-api-key": caller.key! },
        });
        const body = Buffer.from(await image.arrayBuffer());
        const label = `${level} ${Buffer.byteLength(url)} bytes ${format} ${size} (${created.status === 201 ? "accepted" : "stored directly"}) → ${image.status} ${body.toString().slice(0, 200)}`;
        statuses.set(`${created.status}/${image.status}`, (statuses.get(`${created.status}/${image.status}`) ?? 0) + 1);
        assert.ok(image.status < 500, label);
        checkAgainstDocument(
          "GET",
          `/v1/qrcodes/${id}/image?format=${format}&size=${size}`,
          image.status,
          image.headers.get("content-type"),
          image.status === 200 ? "(image bytes)" : body.toString(),
        );
        // What the API accepted always draws at a valid size; a refusal is the contract's error.
        if (created.status === 201 && size !== "63" && size !== "2049") assert.equal(image.status, 200, label);
        if (image.status !== 200) assert.ok(contractErrorShape(JSON.parse(body.toString())) !== null, label);
      }),
      { seed: SEED, numRuns: runs, endOnFailure: true },
    );
    console.log(
      `# fuzz images: ${runs} records, create/image statuses ${[...statuses].map(([s, n]) => `${s}×${n}`).join(" ")}`,
    );
    // Both sides of the capacity were reached.
    assert.ok(
      [...statuses.keys()].some((s) => s.startsWith("201/200")),
      [...statuses.keys()].join(" "),
    );
    assert.ok(
      [...statuses.keys()].some((s) => s.startsWith("400/")),
      [...statuses.keys()].join(" "),
    );
  });
});
