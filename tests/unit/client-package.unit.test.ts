// The typed client package (clients/typescript) type-checks on its own, with its own tsconfig:
// the command line runs its sources through tsx, which does not check types.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { it } from "node:test";

it("clients/typescript type-checks (tsc -p clients/typescript)", () => {
  const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "clients/typescript"], {
    encoding: "utf8",
  });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});
