// The house's import rules (README, "Layout"), read from the sources themselves: three floors,
// each importing only its own and those below it, and no import circle between files (a
// type-only import counts: it ties the two files' meanings as much as a value does).
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import ts from "typescript";

const ROOTS = ["app", "components", "server", "trpc", "clients", "prisma", "scripts", "proxy.ts"];
const SKIP = new Set(["node_modules", "generated", ".next"]);
const EXTENSIONS = [".ts", ".tsx", ".js", ".mjs"];

function sourceFiles(entry: string): string[] {
  if (!existsSync(entry)) return [];
  if (statSync(entry).isFile()) return EXTENSIONS.includes(path.extname(entry)) ? [entry] : [];
  return readdirSync(entry).flatMap((name) => (SKIP.has(name) ? [] : sourceFiles(path.join(entry, name))));
}

/** The project file a specifier names (relative or `@/`), or null for a package; a project path that names no file throws. */
function resolved(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? specifier.slice(2)
    : specifier.startsWith(".")
      ? path.join(path.dirname(from), specifier)
      : null;
  if (base === null) return null;
  const candidates = [
    base,
    ...EXTENSIONS.map((e) => base + e),
    base + ".d.ts",
    ...EXTENSIONS.map((e) => path.join(base, "index" + e)),
  ];
  const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
  // A file of another kind (a style sheet, JSON) has no imports; a path to nothing is a broken import.
  if (found === undefined && !existsSync(base)) throw new Error(`${from}: "${specifier}" names no file`);
  return found ?? null;
}

/** Every import, export-from, `import()` and `typeof import()` of a file, as project files. */
export function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      specifiers.push(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      specifiers.push(node.arguments[0].text);
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      specifiers.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.map((s) => resolved(file, s)).filter((f): f is string => f !== null);
}

/** The circles of a graph, each once (Tarjan's strongly connected components of more than one file, or a file importing itself). */
export function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

/** The floor a file stands on: 0 the platform, 1 a capability, 2 an edge; null beside the floors (scripts, prisma). */
export function floorOf(file: string): number | null {
  // The client package (clients/typescript) is a library of our own the server shares a parser with.
  if (/^(server\/platform|server\/generated|clients\/typescript\/src)\//.test(file)) return 0;
  if (/^(server\/(http|api)|app|components|trpc)\//.test(file) || file === "proxy.ts") return 2;
  if (file.startsWith("server/")) return 1;
  return null;
}

describe("imports", () => {
  it("the circle finder finds a circle of three and a file importing itself, and nothing in a tree", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
      ["e", ["e"]],
      ["f", ["d"]],
    ]);
    assert.deepEqual(circles(graph), [["a", "b", "c"], ["e"]]);
    assert.deepEqual(
      circles(
        new Map([
          ["a", ["b", "c"]],
          ["b", ["c"]],
          ["c", []],
        ]),
      ),
      [],
    );
  });

  const files = ROOTS.flatMap(sourceFiles);
  const graph = new Map(files.map((f) => [f, importsOf(f)]));

  it("no import circle between the project's files", () => {
    assert.ok(files.length > 200, `${files.length} files read`);
    assert.deepEqual(circles(graph), []);
  });

  it("no file imports from a floor above its own: the platform, then the capabilities, then the edges", () => {
    assert.deepEqual(
      [
        floorOf("server/platform/db.ts"),
        floorOf("server/scan/recorder.ts"),
        floorOf("server/http/server.ts"),
        floorOf("components/ui/Nav.tsx"),
        floorOf("scripts/bench.ts"),
      ],
      [0, 1, 2, 2, null],
    );
    const upward = [...graph].flatMap(([file, imports]) =>
      imports
        // Beside the floors (scripts, prisma) is above them all: a floor that imported from there could reach anything.
        .filter((to) => floorOf(file) !== null && (floorOf(to) ?? 3) > floorOf(file)!)
        .map((to) => `${file} → ${to}`),
    );
    assert.deepEqual(upward, []);
  });
});
