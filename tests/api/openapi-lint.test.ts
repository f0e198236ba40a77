// The served OpenAPI document passes two standard linters with no error and no warning:
// Redocly CLI's recommended rules and Spectral's spectral:oas ruleset. Drift between the
// document and the rules of a good description cannot come back unnoticed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { BASE_URL } from "../helpers";

describe("the served OpenAPI document", () => {
  let dir: string;
  let file: string;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "qr-openapi-"));
    file = path.join(dir, "openapi.json");
    writeFileSync(file, await (await fetch(`${BASE_URL}/v1/openapi.json`)).text());
    writeFileSync(path.join(dir, ".spectral.yaml"), 'extends: ["spectral:oas"]\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // Offline: no telemetry, no update check.
  const quiet = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };

  it("Redocly CLI (recommended rules): no error, no warning", () => {
    const run = spawnSync(process.execPath, ["node_modules/@redocly/cli/bin/cli.js", "lint", file, "--extends=recommended", "--max-problems=50"], { encoding: "utf8", env: quiet });
    const output = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, output);
    assert.match(output, /Your API description is valid/, output);
    assert.doesNotMatch(output, /\d+ warnings?/, output);
  });

  it("Spectral (spectral:oas): nothing at any severity", () => {
    const run = spawnSync(process.execPath, ["node_modules/@stoplight/spectral-cli/dist/index.js", "lint", file, "--ruleset", path.join(dir, ".spectral.yaml"), "--fail-severity=hint"], {
      encoding: "utf8",
      env: quiet,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, output);
    assert.match(output, /No results with a severity of 'hint' or higher found/, output);
  });
});
