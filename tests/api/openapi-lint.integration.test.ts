// The served OpenAPI document passes two standard linters with no error and no warning:
// Redocly CLI's recommended-strict rules, and Spectral's spectral:oas with the OWASP API
// Security ruleset (openapi-lint.spectral.yaml: the OWASP rules accepted as not applicable are
// turned off there, docs/API.md says why). Drift between the document and the rules of a good
// description cannot come back unnoticed.
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
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // Offline: no telemetry, no update check.
  const quiet = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };

  it("Redocly CLI (recommended-strict rules): no error, no warning", () => {
    const run = spawnSync(
      process.execPath,
      ["node_modules/@redocly/cli/bin/cli.js", "lint", file, "--extends=recommended-strict", "--max-problems=50"],
      { encoding: "utf8", env: quiet },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, output);
    assert.match(output, /Your API description is valid/, output);
    assert.doesNotMatch(output, /\d+ warnings?/, output);
  });

  it("Spectral (spectral:oas and the OWASP ruleset): nothing at any severity", () => {
    const run = spawnSync(
      process.execPath,
      [
        "node_modules/@stoplight/spectral-cli/dist/index.js",
        "lint",
        file,
        "--ruleset",
        "tests/api/openapi-lint.spectral.yaml",
        "--fail-severity=hint",
      ],
      {
        encoding: "utf8",
        env: quiet,
      },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, output);
    assert.match(output, /No results with a severity of 'hint' or higher found/, output);
  });
});
