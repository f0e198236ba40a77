// The ZIP of QR images streams (issue 20, part 4): 500 codes downloaded from a server of the
// test's own, whose resident memory (VmHWM, its peak, reset before the download through
// /proc/<pid>/clear_refs) grows by less than 64 MB over what it used before; every entry is
// unzipped (yauzl) and decoded (jsQR) to its record's url; a client that leaves half-way frees
// the key for its next ZIP; ids of another library are 404.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../scripts/harness";
import { createStaticCodes } from "../../server/library/staticCodes";
import { personalKey } from "../helpers";
import { decodePng, pngSize } from "../qr-decode";
import { unzip } from "../unzip";

const CODES = 500;
const SIZE = 512;
const MB = 2 ** 20;

const statusField = (pid: number, field: "VmRSS" | "VmHWM") =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) * 1024;

describe("ZIP of 500 QR images", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({});
  });
  after(() => server.stop());

  it("streams with memory growth under 64 MB, and every entry decodes to its record's url", async () => {
    const { user, key } = await personalKey();
    const actor = { userId: user.id, library: { kind: "personal" as const, userId: user.id } };
    const urls = new Map<string, string>();
    for (let start = 0; start < CODES; start += 50) {
      const items = Array.from({ length: 50 }, (_, i) => ({
        name: `Table ${start + i + 1}`,
        url: `https://example.com/menu/table-${start + i + 1}?lang=en`,
      }));
      for (const record of await createStaticCodes(actor, items)) urls.set(record.qr_id, record.url!);
    }
    const headers = { "x-api-key": key };
    // Warm: the route's modules and the image pool's threads are loaded before the baseline.
    const [first] = urls.keys();
    const warm = await fetch(`${server.base}/v1/qrcodes/images.zip?format=png&size=${SIZE}&ids=${first}`, { headers });
    assert.equal(warm.status, 200);
    await warm.arrayBuffer();

    const pid = server.child.pid!;
    const baseline = statusField(pid, "VmRSS");
    writeFileSync(`/proc/${pid}/clear_refs`, "5"); // VmHWM := VmRSS
    const started = performance.now();
    const res = await fetch(`${server.base}/v1/qrcodes/images.zip?format=png&size=${SIZE}`, { headers });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/zip");
    const archive = Buffer.from(await res.arrayBuffer());
    const seconds = (performance.now() - started) / 1000;
    const growth = statusField(pid, "VmHWM") - baseline;
    console.log(
      `ZIP of ${CODES} PNGs of ${SIZE} px: ${(archive.length / MB).toFixed(1)} MB in ${seconds.toFixed(1)} s; ` +
        `server RSS ${(baseline / MB).toFixed(0)} MB before, peak growth ${(growth / MB).toFixed(1)} MB`,
    );
    assert.ok(growth < 64 * MB, `peak RSS grew by ${(growth / MB).toFixed(1)} MB`);

    const entries = await unzip(archive);
    assert.equal(entries.length, CODES);
    assert.equal(new Set(entries.map((e) => e.name)).size, CODES, "entry names are unique");
    for (const { name, data } of entries) {
      const qrId = name.slice(0, name.indexOf("-table-"));
      assert.equal(name, `${qrId}-table-${urls.get(qrId)!.match(/table-(\d+)/)![1]}.png`);
      assert.deepEqual(pngSize(data), { width: SIZE, height: SIZE });
      assert.equal(decodePng(data), urls.get(qrId), name);
    }

    // A client that leaves half-way ends its ZIP: the key's next ZIP (made after it) is answered.
    const leaving = new AbortController();
    const abandoned = await fetch(`${server.base}/v1/qrcodes/images.zip?format=png&size=${SIZE}`, {
      headers,
      signal: leaving.signal,
    });
    const reader = abandoned.body!.getReader();
    assert.equal((await reader.read()).done, false);
    leaving.abort();
    const next = await fetch(`${server.base}/v1/qrcodes/images.zip?format=png&ids=${first}`, {
      headers,
      signal: AbortSignal.timeout(60_000),
    });
    assert.deepEqual(
      (await unzip(Buffer.from(await next.arrayBuffer()))).map((e) => decodePng(e.data)),
      [urls.get(first)],
    );

    // Another library's ids: 404 before anything is sent.
    const stranger = await personalKey();
    const refused = await fetch(`${server.base}/v1/qrcodes/images.zip?format=png&ids=${first}`, {
      headers: { "x-api-key": stranger.key },
    });
    assert.equal(refused.status, 404);
    assert.deepEqual(await refused.json(), { error: `QR code not found: ${first}` });
  });
});
