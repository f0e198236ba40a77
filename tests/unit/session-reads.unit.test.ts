// Ending sessions costs /v1 and /q nothing (contract: "Accounts for real"): the session
// version is read from the database only by next-auth's jwt callback (server/accounts/auth.ts), and
// nothing the Node server runs for /v1 or /q imports server/accounts/auth.ts, so those requests never
// read a session, let alone its version.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import ts from "typescript";

/** The relative imports of a module, resolved to files. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const target =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) &&
            node.expression.kind === ts.SyntaxKind.ImportKeyword &&
            ts.isStringLiteral(node.arguments[0])
          ? node.arguments[0].text
          : null;
    if (target?.startsWith(".")) {
      const base = path.join(path.dirname(file), target);
      const resolved = [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), base].find(
        (f) => existsSync(f) && f.endsWith(".ts"),
      );
      if (resolved) found.push(path.normalize(resolved));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every module `entry` loads, itself included. */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...importsOf(file));
  }
  return seen;
}

function serverModules(dir = "server"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : serverModules(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

describe("session reads", () => {
  it("nothing that answers /v1 or /q loads server/accounts/auth.ts", () => {
    for (const entry of ["server/api/v1.ts", "server/scan/redirect.ts"]) {
      const modules = reachable(entry);
      assert.ok(modules.size > 10, `${entry} loads ${modules.size} modules`);
      assert.ok(!modules.has(path.normalize("server/accounts/auth.ts")), `${entry} reaches server/accounts/auth.ts`);
    }
    // The Node server's own imports: /q and /v1 are answered before Next is handed anything.
    assert.ok(!reachable("server/http/server.ts").has(path.normalize("server/accounts/auth.ts")));
  });

  it("only server/accounts/auth.ts reads the session version", () => {
    const readers = serverModules().filter((file) => /\bliveSessionVersion\(/.test(readFileSync(file, "utf8")));
    assert.deepEqual(readers.sort(), [
      path.normalize("server/accounts/auth.ts"),
      path.normalize("server/accounts/sessions.ts"),
    ]);
  });
});
