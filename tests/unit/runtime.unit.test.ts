// The runtime (issue 41): Node 24 or newer, the one `npm ci` installs. An entry started by an
// older Node refuses in one line that says which Node is needed and how to get it, and exits 1:
// the rule on given versions, and for real with the machine's own older Node (Debian's 20 on
// developers' machines and CI's), which must be there: this test fails, never skips, without it.
import assert from "node:assert/strict";
import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { NODE_MAJOR, runtimeRefusal } from "../../server/platform/runtime";

/** The first `node` on PATH (or in /usr/bin, /usr/local/bin) outside node_modules older than NODE_MAJOR. */
function olderNode(): { file: string; version: string } | undefined {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/local/bin", "/usr/bin"];
  for (const dir of dirs.filter((d) => d !== "" && !d.split(path.sep).includes("node_modules"))) {
    const file = path.join(dir, "node");
    if (!existsSync(file)) continue;
    const version = execFileSync(file, ["--version"]).toString().trim();
    if (runtimeRefusal(version) !== null) return { file, version };
  }
  return undefined;
}

describe("runtime", () => {
  it("refuses every version before Node 24 in one line naming the Node needed and how to get it", () => {
    for (const version of ["v20.20.2", "v22.12.0", "v23.11.1", "v8.17.0"]) {
      const refusal = runtimeRefusal(version);
      assert.ok(refusal !== null, version);
      assert.ok(!refusal.includes("\n"), refusal);
      assert.ok(refusal.includes(`needs Node ${NODE_MAJOR} or newer (this is ${version})`), refusal);
      assert.ok(refusal.includes("`npm ci` installed"), refusal);
    }
  });

  it("accepts Node 24 and later, and the Node these tests run on", () => {
    for (const version of ["v24.0.0", "v24.21.0", "v25.1.0", "v26.10.0", "v100.0.0", process.version])
      assert.equal(runtimeRefusal(version), null, version);
  });

  it("an entry started by the machine's older Node prints the refusal alone and exits 1", () => {
    const old = olderNode();
    assert.ok(
      old,
      `no Node older than ${NODE_MAJOR} outside node_modules (PATH, /usr/bin): this test needs one, as on CI (Debian's nodejs)`,
    );
    // The server as the systemd unit starts it, and `npm start`'s script: both load a large module graph first.
    for (const entry of ["server/http/server.ts", "scripts/serve.ts"]) {
      const run: SpawnSyncReturns<Buffer> = spawnSync(
        old.file,
        ["--max-semi-space-size=2", "--import", "tsx", entry, "--port", "1"],
        {
          env: { ...process.env, NODE_OPTIONS: "" },
          timeout: 60_000,
        },
      );
      assert.equal(run.stderr.toString(), runtimeRefusal(old.version) + "\n", entry);
      assert.equal(run.stdout.toString(), "", entry);
      assert.equal(run.status, 1, entry);
    }
  });
});
