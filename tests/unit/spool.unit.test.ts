// The scan spool's files (server/scan/spool): framing, torn records, the checkpoint and the lock.
import assert from "node:assert/strict";
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  openSync,
  writeSync,
  closeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import { frame, unframe, HEADER_BYTES } from "../../server/scan/spool/framing";
import { SpoolInUseError } from "../../server/scan/spool/lock";
import { segmentOf } from "../../server/scan/spool/segments";
import { Spool } from "../../server/scan/spool/spool";

const payload = (text: string) => Buffer.from(text);
const texts = (u: ReturnType<typeof unframe>) => u.records.map((r) => r.payload.toString());

function tempDir() {
  return mkdtempSync(path.join(tmpdir(), "qr-spool-unit-"));
}

type Torn = { file: string; offset: number; reason: string };
function openSpool(dir: string, segmentBytes?: number, checkpointMs?: number) {
  const torn: Torn[] = [];
  const errors: string[] = [];
  const spool = new Spool(dir, {
    fsyncMs: 0,
    segmentBytes,
    checkpointMs,
    onError: (_e, what) => errors.push(what),
    onTorn: (file, offset, reason) => torn.push({ file, offset, reason }),
  });
  const leftovers = spool.open();
  return { spool, leftovers, torn, errors };
}

/** What a restarted process would replay: every leftover record's text, in order. */
async function replayed(spool: Spool): Promise<string[]> {
  const out: string[] = [];
  for await (const { records } of spool.leftovers()) for (const r of records) out.push(r.payload.toString());
  return out;
}

describe("spool framing", () => {
  it("reads back what it framed, in order", () => {
    const data = frame(["a", "bb", "", "ünïcode"].map(payload));
    assert.deepEqual(texts(unframe(data)), ["a", "bb", "", "ünïcode"]);
    assert.equal(unframe(data).torn, null);
  });

  it("a torn last record is skipped, never half-read, wherever the write stopped", () => {
    const whole = frame(["first", "second"].map(payload));
    const secondStart = HEADER_BYTES + "first".length;
    for (let cut = secondStart + 1; cut < whole.length; cut++) {
      const u = unframe(whole.subarray(0, cut));
      assert.deepEqual(texts(u), ["first"], `cut at ${cut}`);
      assert.equal(u.torn?.offset, secondStart);
      assert.match(u.torn!.reason, cut - secondStart < HEADER_BYTES ? /short header/ : /short payload/);
    }
  });

  it("a damaged payload fails its checksum", () => {
    const data = Buffer.from(frame(["first", "second"].map(payload)));
    data[data.length - 1] ^= 0xff;
    const u = unframe(data);
    assert.deepEqual(texts(u), ["first"]);
    assert.equal(u.torn?.reason, "checksum mismatch");
  });
});

describe("spool files", () => {
  it("a torn record left by a killed process is skipped with a report; what came before is replayed; the next process writes a new segment", async () => {
    const dir = tempDir();
    try {
      const first = openSpool(dir);
      first.spool.append(["one", "two"].map(payload));
      const end = first.spool.append(["three"].map(payload))!;
      // Killed in the middle of its next write: half a record at the end of the segment.
      const file = path.join(
        dir,
        readdirSync(dir).find((f) => f.endsWith(".spool"))!,
      );
      const half = frame([payload("four")]).subarray(0, 9);
      const fd = openSync(file, "a");
      writeSync(fd, half);
      closeSync(fd);
      assert.equal(statSync(file).size, (end % 2 ** 32) + 9);

      const second = openSpool(dir);
      assert.equal(second.leftovers, true);
      assert.deepEqual(await replayed(second.spool), ["one", "two", "three"]);
      assert.equal(second.torn.length, 1);
      assert.equal(second.torn[0].file, file);
      assert.equal(second.torn[0].reason, "short header");
      // Its own records go to a new segment, after the torn one.
      const live = second.spool.append([payload("five")])!;
      assert.equal(segmentOf(live), segmentOf(end) + 1);
      second.spool.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("two processes never share one directory", () => {
    const dir = tempDir();
    try {
      // The parent of this test process is alive: its id in the lock means the directory is taken.
      writeFileSync(path.join(dir, "lock"), `${process.ppid}\n`);
      assert.throws(
        () => openSpool(dir),
        (error: Error) =>
          error instanceof SpoolInUseError &&
          /is in use by process \d+: every instance needs a SCAN_SPOOL_DIR of its own/.test(error.message),
      );
      // A lock left by a process that died is taken over.
      writeFileSync(path.join(dir, "lock"), `999999999\n`);
      const { spool } = openSpool(dir);
      assert.equal(spool.writable, true);
      spool.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("segments behind the checkpoint are removed; the ones ahead of it stay", () => {
    const dir = tempDir();
    try {
      const { spool } = openSpool(dir, 40); // one record a segment
      const positions = Array.from({ length: 10 }, (_, i) =>
        spool.append([payload(`scan number ${i} padded to rotate`)])!,
      );
      const segments = () => readdirSync(dir).filter((f) => f.endsWith(".spool")).length;
      assert.equal(segments(), 11); // 10 full, 1 new
      // A segment goes once the checkpoint is past it (the one it stands at the end of stays).
      spool.written(positions[4]);
      assert.equal(segments(), 7);
      spool.written(positions[9]);
      assert.equal(segments(), 2);
      spool.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("with checkpointMs, the checkpoint moves at most that often (behind, never ahead), and to the last report on close", async () => {
    const dir = tempDir();
    try {
      const { spool } = openSpool(dir, undefined, 60_000);
      const [first, second, third] = ["a", "b", "c"].map((text) => spool.append([payload(text)])!);
      const checkpoint = () => readFileSync(path.join(dir, "checkpoint"), "utf8");
      spool.written(first);
      const atFirst = checkpoint();
      spool.written(second);
      spool.written(third);
      assert.equal(checkpoint(), atFirst, "within the minute, the checkpoint stays at the first report");
      // A crash now replays b and c (written, yet ahead of the checkpoint): the replay skips stored scans.
      const copy = tempDir();
      cpSync(dir, copy, { recursive: true });
      rmSync(path.join(copy, "lock"));
      const probe = openSpool(copy);
      assert.deepEqual(await replayed(probe.spool), ["b", "c"]);
      probe.spool.close();
      rmSync(copy, { recursive: true, force: true });
      spool.close();
      const { spool: next } = openSpool(dir);
      assert.deepEqual(await replayed(next), [], "a clean close leaves nothing to replay");
      next.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the checkpoint never passes an unwritten scan: whatever was written and whenever the process dies, a restart replays every scan not reported written (property)", async () => {
    // Steps: append a group of scans; report the oldest k unreported groups written (the
    // recorder's FIFO batches); crash (the next process starts on the directory, replays part
    // of the leftovers, and may crash again in the middle).
    const step = fc.oneof(
      fc.record({ kind: fc.constant("append" as const), size: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ kind: fc.constant("written" as const), groups: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant("crash" as const), replayGroups: fc.integer({ min: 0, max: 5 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 40, max: 400 }),
        async (steps, segmentBytes) => {
          const dir = tempDir();
          try {
            let next = 0;
            /** Scans answered and not yet reported written, in order: they must all be replayable. */
            const unwritten: string[] = [];
            const written = new Set<string>();
            let groups: { texts: string[]; position: number }[] = [];
            let current = openSpool(dir, segmentBytes);
            const check = async () => {
              // A restart on a copy of the directory as it is now: what it would replay.
              const copy = tempDir();
              cpSync(dir, copy, { recursive: true });
              const probe = openSpool(copy, segmentBytes);
              const again = await replayed(probe.spool);
              probe.spool.close();
              rmSync(copy, { recursive: true, force: true });
              for (const text of unwritten)
                assert.ok(again.includes(text), `${text} lost: replay holds ${again.join(",")}`);
            };
            for (const s of steps) {
              if (s.kind === "append") {
                const texts = Array.from({ length: s.size }, () => `scan-${next++}`);
                const position = current.spool.append(texts.map(payload))!;
                groups.push({ texts, position });
                unwritten.push(...texts);
              } else if (s.kind === "written") {
                const done = groups.splice(0, s.groups);
                if (done.length === 0) continue;
                current.spool.written(done[done.length - 1].position);
                for (const g of done)
                  for (const t of g.texts) {
                    written.add(t);
                    unwritten.splice(unwritten.indexOf(t), 1);
                  }
              } else {
                // kill -9: no close, the lock stays (its process id is ours: taken over as a dead one's).
                current = openSpool(dir, segmentBytes);
                groups = [];
                // The new process writes part of what was left (a second crash may follow).
                let replayedGroups = 0;
                for await (const { records } of current.spool.leftovers()) {
                  for (const r of records) {
                    if (replayedGroups >= s.replayGroups) break;
                    current.spool.replayed(r.end);
                    const text = r.payload.toString();
                    if (unwritten.includes(text)) unwritten.splice(unwritten.indexOf(text), 1);
                    written.add(text);
                    replayedGroups++;
                  }
                  if (replayedGroups >= s.replayGroups) break;
                }
                if (replayedGroups < s.replayGroups) current.spool.replayDone();
              }
              await check();
            }
            current.spool.close();
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 60, seed: 20261124 },
    );
  });
});
