// Item 5 of the one-edge issue: module state exists once per process. The Node server and
// Next's bundle each load server/*, so module-level state made outside `processSingleton`
// would exist twice. This reads every server module and fails on such state.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import ts from "typescript";
import { processSingleton, processStateNames } from "../../server/platform/process-singleton";

/** Entry points that only one loader ever runs: the Node server. */
const ENTRY_POINTS = new Set(["server/http/server.ts"]);
/** Calls whose result may be kept at module level: they go through processSingleton themselves. */
const ALLOWED_CALLS = new Set(["processSingleton", "memoize"]);

function serverModules(dir = "server"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : serverModules(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** Module-level state outside processSingleton in one file: `let`, or a const made by `new`. */
function strayState(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    for (const declaration of list.declarations) {
      const name = declaration.name.getText(source);
      const where = `${file}:${source.getLineAndCharacterOfPosition(declaration.getStart()).line + 1} ${name}`;
      if (!(list.flags & ts.NodeFlags.Const)) {
        found.push(`${where} (let/var)`);
        continue;
      }
      let init = declaration.initializer;
      while (init && (ts.isAsExpression(init) || ts.isParenthesizedExpression(init) || ts.isSatisfiesExpression(init)))
        init = init.expression;
      if (!init) continue;
      if (ts.isNewExpression(init)) found.push(`${where} (new ${init.expression.getText(source)})`);
      if (
        ts.isCallExpression(init) &&
        ts.isIdentifier(init.expression) &&
        ["memoize", "once"].includes(init.expression.text) &&
        !ALLOWED_CALLS.has(init.expression.text)
      ) {
        found.push(`${where} (${init.expression.text})`);
      }
      if (init.getText(source).includes("globalThis") && !file.endsWith("process-singleton.ts"))
        found.push(`${where} (globalThis)`);
    }
  }
  return found;
}

describe("one copy of each piece of module state per process", () => {
  it("no server module keeps state outside processSingleton", () => {
    const stray = serverModules()
      .filter((file) => !ENTRY_POINTS.has(file))
      .flatMap(strayState);
    assert.deepEqual(stray, []);
  });

  it("the check finds a let, a new Map and a globalThis pin", () => {
    const sample = path.join("tests", "unit", "fixtures", "stray-state.ts");
    assert.deepEqual(
      strayState(sample).map((s) => s.replace(/^.*:\d+ /, "")),
      ["counter (let/var)", "cache (new Map)", "pinned (globalThis)"],
    );
  });

  it("two copies of a module asking for one name share one value", () => {
    const first = processSingleton("test.shared", () => ({ hits: 0 }));
    const second = processSingleton("test.shared", () => ({ hits: 100 }));
    first.hits++;
    assert.equal(second.hits, 1);
    assert.ok(processStateNames().includes("test.shared"));
  });
});
