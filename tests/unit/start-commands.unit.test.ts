// Every documented start of the server runs Node with the same options (memory: the main
// thread's young generation, docs/RELIABILITY.md): package.json's `start` and `serve` scripts,
// the systemd unit, and the harness that tests and benchmarks start servers with. The units run
// the Node that `npm ci` installed (issue 41: the machine's own may be older).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { it } from "node:test";
import { SERVER_NODE_OPTIONS } from "../../scripts/harness";

const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
/** The words between `node` and `--import tsx` of a command. */
const nodeOptions = (command: string) => {
  const words = command.trim().split(/\s+/);
  return words.slice(1, words.indexOf("--import"));
};

it("npm start, npm run serve, the systemd unit and the harness give Node the same options", () => {
  const unit = /^ExecStart=(.*)$/m.exec(readFileSync("deploy/systemd/qr-records@.service", "utf8"))![1];
  assert.ok(SERVER_NODE_OPTIONS.includes("--max-semi-space-size=2"), SERVER_NODE_OPTIONS.join(" "));
  assert.deepEqual(nodeOptions(scripts.serve), SERVER_NODE_OPTIONS);
  assert.deepEqual(nodeOptions(unit), SERVER_NODE_OPTIONS);
});

it("the systemd units run the Node that npm ci installed, not the machine's", () => {
  for (const unit of ["deploy/systemd/qr-records@.service", "deploy/systemd/qr-records-migrate.service"]) {
    const start = /^ExecStart=(.*)$/m.exec(readFileSync(unit, "utf8"))![1];
    assert.equal(start.split(" ")[0], "/opt/qr-records/node_modules/.bin/node", unit);
  }
});
