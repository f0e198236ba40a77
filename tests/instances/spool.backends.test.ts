// The scan spool (contract: "Short links that never fail and never lose a scan"): kill -9
// under /q load loses no answered scan and counts none twice, also when the kill lands between
// a batch's commit and its checkpoint, and again during the replay; two servers never share a
// spool; a spool that cannot be written still answers every redirect.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { db } from "../../server/platform/db";
import { visitorHash } from "../../server/scan/visitor";
import { frame } from "../../server/scan/spool/framing";
import { timeOrderedId } from "../../server/platform/ids";
import { CLIENT_ADDRESS, http, personalKey, until } from "../helpers";
import { startServer, type RunningServer } from "../../scripts/harness";

const UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
/** Each request its own agent, so that each stored scan names the request it came from (its visitor hash). */
const agentOf = (n: number) => `${UA} r${n}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function dynamicCode(name: string) {
  const { key } = await personalKey();
  const created = await http("POST", "/v1/dynqrcodes", {
    key,
    json: { destination_url: "https://example.com/spool", name },
  });
  const code = (created.body as { created: { code: string }[] }).created[0].code;
  const { id } = await db.dynamicCode.findFirstOrThrow({ where: { code } });
  return { key, code, id };
}

/** Browser-like /q traffic from `workers` loops; each request numbered from `first`. */
function load(server: RunningServer, code: string, first: number, workers = 8) {
  const answered = new Set<number>();
  const cut = new Set<number>();
  const other = new Map<number, number>();
  let next = first;
  let running = true;
  const loop = async () => {
    while (running) {
      const n = next++;
      try {
        const res = await fetch(`${server.base}/q/${code}`, {
          redirect: "manual",
          headers: { "user-agent": agentOf(n) },
        });
        await res.arrayBuffer();
        if (res.status === 302) answered.add(n);
        else other.set(res.status, (other.get(res.status) ?? 0) + 1);
      } catch {
        cut.add(n); // the server died with this request in flight: it may or may not have been spooled
        return;
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, loop));
  return {
    answered,
    cut,
    other,
    stop: async () => {
      running = false;
      await done;
    },
    done,
  };
}

const countOf = (id: string) => db.scanEvent.count({ where: { dynamicCodeId: id } });
/** The code's stored scans once there are more than `floor` (read every 20 ms, for a minute at most). */
async function countAbove(id: string, floor: number): Promise<number> {
  let count = await countOf(id);
  for (let i = 0; i < 3000 && count <= floor; i++) {
    await sleep(20);
    count = await countOf(id);
  }
  return count;
}

/**
 * Every answered request's scan is stored exactly once; a stored scan is one of ours (answered,
 * or cut by the kill after it was spooled); no visitor counted unique twice.
 */
async function assertExactlyOnce(id: string, answered: Set<number>, cut: Set<number>) {
  const expected = new Map<string, number>();
  for (const n of [...answered, ...cut]) expected.set(visitorHash(CLIENT_ADDRESS, agentOf(n)), n);
  let rows: { visitorHash: string; unique: boolean }[] = [];
  const deadline = Date.now() + 30_000;
  for (;;) {
    rows = await db.scanEvent.findMany({ where: { dynamicCodeId: id }, select: { visitorHash: true, unique: true } });
    const stored = new Set(rows.map((r) => r.visitorHash));
    if ([...answered].every((n) => stored.has(visitorHash(CLIENT_ADDRESS, agentOf(n)))) || Date.now() > deadline) break;
    await sleep(200);
  }
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(r.visitorHash, (seen.get(r.visitorHash) ?? 0) + 1);
  const missing = [...answered].filter((n) => !seen.has(visitorHash(CLIENT_ADDRESS, agentOf(n))));
  assert.deepEqual(missing, [], "every answered redirect is recorded");
  assert.deepEqual(
    [...seen].filter(([, times]) => times > 1),
    [],
    "no scan recorded twice",
  );
  assert.deepEqual(
    rows.filter((r) => !expected.has(r.visitorHash)),
    [],
    "every recorded scan is one of ours",
  );
  // Each request is a visitor of its own: every scan is that visitor's first of the day, and the rollup agrees.
  assert.equal(rows.filter((r) => r.unique).length, rows.length, "unique once per visitor");
  const daily = await db.scanDaily.findMany({ where: { dynamicCodeId: id, dimension: "total" } });
  assert.equal(
    daily.reduce((sum, d) => sum + d.scans, 0),
    rows.length,
    "the daily rollup counts each stored scan once",
  );
  assert.equal(
    daily.reduce((sum, d) => sum + d.uniqueScans, 0),
    rows.length,
    "and each unique once",
  );
  return rows.length;
}

/** The restarted server's replay line (LOG_LEVEL=info). */
async function replayLine(server: RunningServer): Promise<{ scans: number; stored: number; alreadyStored: number }> {
  await until(() => server.output().includes('"scans.spool_replayed"'), "the spool's replay", 60_000);
  const line = server
    .output()
    .split("\n")
    .find((l) => l.includes('"scans.spool_replayed"'))!;
  return JSON.parse(line) as { scans: number; stored: number; alreadyStored: number };
}

describe("scan spool", () => {
  it("kill -9 under /q load, then restart: every answered redirect recorded, exactly once", async (t) => {
    const { code, id } = await dynamicCode("Spool kill");
    const spool = mkdtempSync(path.join(tmpdir(), "qr-spool-kill-"));
    try {
      // The writer rests a second after each batch, so that the kill always finds scans it has
      // not written yet, however fast it keeps up on a quiet machine (on a busy one it had
      // written every scan by the kill, and there was nothing to replay).
      const first = await startServer({ SCAN_SPOOL_DIR: spool, SCAN_WRITER_TEST_PAUSE_MS: "1000" });
      const traffic = load(first, code, 0);
      await until(() => traffic.answered.size > 1500, "traffic to flow", 60_000);
      first.child.kill("SIGKILL");
      await first.exited;
      await traffic.stop();
      const atKill = await countOf(id);

      const second = await startServer({ SCAN_SPOOL_DIR: spool, LOG_LEVEL: "info" });
      const after = load(second, code, 1_000_000, 2);
      await until(() => after.answered.size >= 200, "redirects after the restart", 60_000);
      await after.stop();
      const replay = await replayLine(second);
      const recorded = await assertExactlyOnce(id, new Set([...traffic.answered, ...after.answered]), traffic.cut);
      t.diagnostic(
        `answered ${traffic.answered.size} before the kill (${traffic.cut.size} cut in flight), ${after.answered.size} after; ${atKill} stored at the kill; replay ${JSON.stringify(replay)}; recorded ${recorded}`,
      );
      assert.ok(atKill < traffic.answered.size, "the kill left scans to replay");
      assert.ok(replay.stored > 0);
      assert.equal(await second.stop(), 0);
    } finally {
      rmSync(spool, { recursive: true, force: true });
    }
  });

  it("kill -9 between a batch's commit and its checkpoint, and again during the replay: nothing counted twice, uniques and rollups included", async (t) => {
    const { code, id } = await dynamicCode("Spool mid-batch");
    const spool = mkdtempSync(path.join(tmpdir(), "qr-spool-mid-"));
    // The writer pauses 60 s after each commit, before its checkpoint: a kill after a commit lands there.
    const PAUSE = { SCAN_SPOOL_DIR: spool, SCAN_WRITER_TEST_PAUSE_MS: "60000" };
    try {
      // 1. The first batch is committed within 200 ms of the first scan, then the writer
      // pauses, its checkpoint not moved, while the load goes on into the spool.
      const first = await startServer(PAUSE);
      const traffic = load(first, code, 0);
      await until(() => traffic.answered.size > 1500, "traffic to flow", 60_000);
      // On a busy machine (the run's SQLite database written by other files) the commit can
      // come after those 1,500 answers: the writer's pause after it leaves time to wait for it.
      const stored = await countAbove(id, 0);
      first.child.kill("SIGKILL");
      await first.exited;
      await traffic.stop();
      assert.ok(stored > 0, "the first batch was committed before the kill");

      // 2. The replay commits its first batch (those scans among them are skipped) and pauses: killed again there.
      const second = await startServer({ ...PAUSE, LOG_LEVEL: "info" });
      const duringReplay = await countAbove(id, stored);
      second.child.kill("SIGKILL");
      await second.exited;
      assert.ok(duringReplay > stored, "the replay committed a batch before the second kill");

      // 3. A third start writes everything again from the same checkpoint; what is stored is skipped.
      const third = await startServer({ SCAN_SPOOL_DIR: spool, LOG_LEVEL: "info" });
      const replay = await replayLine(third);
      const recorded = await assertExactlyOnce(id, traffic.answered, traffic.cut);
      t.diagnostic(
        `answered ${traffic.answered.size} (${traffic.cut.size} cut); stored ${stored} at the first kill (mid-batch), ${duringReplay} at the second (mid-replay); third start's replay ${JSON.stringify(replay)}; recorded ${recorded}`,
      );
      // Neither killed writer moved the checkpoint: the third replays everything, and skips exactly what they had committed.
      assert.equal(
        replay.alreadyStored,
        duringReplay,
        "the scans the killed writers had committed are skipped, each once",
      );
      assert.equal(replay.scans, recorded, "every scan the spool held is written");
      assert.equal(await third.stop(), 0);
    } finally {
      rmSync(spool, { recursive: true, force: true });
    }
  });

  it("a spool left by an earlier version (one scan a record, not one turn a record) is replayed whole", async () => {
    const { id } = await dynamicCode("Spool of an earlier version");
    const spool = mkdtempSync(path.join(tmpdir(), "qr-spool-v1-"));
    try {
      const at = Date.parse("2026-11-01T10:00:00Z");
      const records = Array.from({ length: 30 }, (_, n) =>
        Buffer.from(
          JSON.stringify([
            timeOrderedId("scan"),
            id,
            at + n,
            "https://example.com/spool",
            agentOf(n),
            "203.0.113.9",
            null,
          ]),
        ),
      );
      writeFileSync(path.join(spool, "scans-000000000001.spool"), frame(records));
      const server = await startServer({ SCAN_SPOOL_DIR: spool, LOG_LEVEL: "info" });
      const replay = await replayLine(server);
      assert.deepEqual([replay.scans, replay.stored], [30, 30]);
      const hashes = await db.scanEvent.findMany({ where: { dynamicCodeId: id }, select: { visitorHash: true } });
      assert.deepEqual(
        new Set(hashes.map((h) => h.visitorHash)),
        new Set(Array.from({ length: 30 }, (_, n) => visitorHash("203.0.113.9", agentOf(n)))),
      );
      assert.equal(await server.stop(), 0);
    } finally {
      rmSync(spool, { recursive: true, force: true });
    }
  });

  it("two servers never share one spool", async () => {
    const spool = mkdtempSync(path.join(tmpdir(), "qr-spool-lock-"));
    try {
      const first = await startServer({ SCAN_SPOOL_DIR: spool });
      await assert.rejects(
        startServer({ SCAN_SPOOL_DIR: spool }),
        /Refusing to start: the scan spool .* is in use by process \d+: every instance needs a SCAN_SPOOL_DIR of its own/,
      );
      await first.stop();
      // A clean exit frees it.
      const again = await startServer({ SCAN_SPOOL_DIR: spool });
      assert.equal(await again.stop(), 0);
    } finally {
      rmSync(spool, { recursive: true, force: true });
    }
  });

  it("a spool that fills up or cannot be written: every redirect still 302, its scan kept in memory and recorded once, /readyz 200 says so, one log line", async (t) => {
    const { code, id } = await dynamicCode("Spool full");
    const dir = mkdtempSync(path.join(tmpdir(), "qr-spool-full-"));
    // As root (CI): a 32 kB filesystem of the test's own, full after a hundred scans or so.
    // Otherwise: a directory this user may not write.
    const root = process.getuid?.() === 0;
    if (root) execFileSync("mount", ["-t", "tmpfs", "-o", "size=32k,mode=0700", "tmpfs", dir]);
    else chmodSync(dir, 0o500);
    try {
      const server = await startServer({ SCAN_SPOOL_DIR: path.join(dir, "spool") });
      const traffic = load(server, code, 0, 4);
      await until(() => traffic.answered.size > 800, "traffic to flow", 60_000);
      const ready = await fetch(`${server.base}/readyz`);
      const metrics = await (await fetch(`${server.base}/metrics`)).text();
      await traffic.stop();
      assert.equal(await server.stop(), 0);
      assert.deepEqual([...traffic.other], [], "every redirect answered 302");
      assert.equal(traffic.cut.size, 0);
      assert.equal(ready.status, 200);
      assert.equal(((await ready.json()) as { checks: Record<string, string> }).checks.spool, "unwritable");
      const errors = Number(/^qr_scan_spool_errors_total (\d+)/m.exec(metrics)?.[1]);
      assert.ok(errors > 0, `qr_scan_spool_errors_total ${errors}`);
      const lines = server
        .output()
        .split("\n")
        .filter((l) => l.includes('"scans.spool_failed"'));
      assert.equal(lines.length, 1, "logged once a minute at most, not once a scan");
      const recorded = await assertExactlyOnce(id, traffic.answered, traffic.cut);
      t.diagnostic(
        `${root ? "32 kB tmpfs" : "read-only directory"}: ${traffic.answered.size} redirects, ${errors} spool errors counted, ${recorded} recorded; ${lines[0].slice(0, 200)}`,
      );
    } finally {
      if (root) execFileSync("umount", ["-l", dir]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
