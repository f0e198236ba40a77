// The test runner's own promises (tests/schedule.ts, tests/group.ts): files sharing a process
// keep their hooks to themselves, in order; a process past its time is killed with what it
// started, and fails.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, it } from "node:test";
import { runFiles, runNode } from "../schedule";

const dir = mkdtempSync(path.join(tmpdir(), "qr-schedule-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const journal = path.join(dir, "journal");
// The files' own output stays out of this file's: a failure they print on purpose is not one here.
const print = () => {};

/** A test file that notes its test and its top-level after hook in the journal. */
const testFile = (name: string) => {
  const file = path.join(dir, `${name}.test.ts`);
  writeFileSync(
    file,
    `import { appendFileSync } from "node:fs";
import { after, it } from "node:test";
after(() => appendFileSync(${JSON.stringify(journal)}, "${name} after\\n"));
it("${name}", () => appendFileSync(${JSON.stringify(journal)}, "${name} test\\n"));
`,
  );
  return file;
};

it("files in one process run in turn, each file's top-level hooks with its own tests", async () => {
  const files = ["a", "b", "c"].map(testFile);
  const results = await runFiles(files, process.env, { jobs: 1, alone: () => false, shared: () => true, print });
  assert.equal(results.length, 1, "one process for the three");
  assert.deepEqual([results[0].passed, results[0].failed, results[0].code], [3, 0, 0]);
  assert.deepEqual(readFileSync(journal, "utf8").trim().split("\n"), [
    "a test",
    "a after",
    "b test",
    "b after",
    "c test",
    "c after",
  ]);
});

it("a process past its time is killed with what it started, and says so", async () => {
  const script = path.join(dir, "hangs.mjs");
  // Starts a child that would outlive it, prints its pid, then never ends.
  writeFileSync(
    script,
    `import { spawn } from "node:child_process";
const child = spawn("sleep", ["60"], { stdio: "ignore" });
console.log(child.pid);
setInterval(() => {}, 1000);
`,
  );
  const started = Date.now();
  const { timedOut, output } = await runNode([script], process.env, false, 1);
  assert.equal(timedOut, true);
  assert.ok(Date.now() - started < 10_000, "ended at its time, not the child's");
  const grandchild = Number(output.trim());
  assert.ok(grandchild > 0, output);
  // Gone, or a zombie until the machine's init reaps it.
  const alive = () => {
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${grandchild}/stat`, "utf8"));
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 40 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(alive(), false, "the child it started is gone too");
});

it("a test that runs out of time, and a file that exits badly without a failing test, count as failures", async () => {
  const late = path.join(dir, "late.test.ts");
  writeFileSync(
    late,
    `import { it } from "node:test";\nit("never ends", { timeout: 200 }, () => new Promise(() => {}));\n`,
  );
  const exits = path.join(dir, "exits.test.ts");
  writeFileSync(exits, `import { it } from "node:test";\nit("passes", () => {});\nprocess.exitCode = 3;\n`);
  const results = await runFiles([late, exits], process.env, { jobs: 2, alone: () => false, print });
  const of = (file: string) => results.find((r) => r.file === file)!;
  assert.deepEqual([of(late).failed, of(late).code], [1, 1]);
  assert.deepEqual([of(exits).passed, of(exits).failed, of(exits).code], [1, 1, 3]);
});

it("files that run alone run beside their company only, and nothing else runs beside them", async () => {
  const spans = path.join(dir, "spans");
  /** A test file that notes when it began and ended; `waitFor`: it ends only once that file began too. */
  const timed = (name: string, waitFor?: string) => {
    const file = path.join(dir, `${name}.test.ts`);
    writeFileSync(
      file,
      `import { appendFileSync, readFileSync } from "node:fs";
import { it } from "node:test";
const note = (what: string) => appendFileSync(${JSON.stringify(spans)}, JSON.stringify(["${name}", what, Date.now()]) + "\\n");
it("${name}", async () => {
  note("began");
  const waitFor = ${JSON.stringify(waitFor ?? null)};
  for (let i = 0; waitFor && !readFileSync(${JSON.stringify(spans)}, "utf8").includes(\`["\${waitFor}","began"\`); i++) {
    if (i === 100) throw new Error(\`\${waitFor} never ran beside it\`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 100));
  note("ended");
});
`,
    );
    return file;
  };
  const files = [timed("pair1", "pair2"), timed("pair2", "pair1"), timed("lone"), timed("other1"), timed("other2")];
  const aloneOnes = new Set(files.slice(0, 3));
  const results = await runFiles(files, process.env, {
    jobs: 4,
    alone: (f) => aloneOnes.has(f),
    company: (f) => (f.includes("pair") ? "pair" : f),
    print,
  });
  assert.deepEqual(
    results.map((r) => r.failed),
    [0, 0, 0, 0, 0],
    "the company ran together",
  );
  const span: Record<string, { began: number; ended: number }> = {};
  for (const line of readFileSync(spans, "utf8").trim().split("\n")) {
    const [name, what, at] = JSON.parse(line) as [string, "began" | "ended", number];
    span[name] = { ...span[name], [what]: at };
  }
  const overlap = (a: string, b: string) => span[a].began < span[b].ended && span[b].began < span[a].ended;
  for (const [a, b] of [
    ["pair1", "lone"],
    ["pair2", "lone"],
    ["lone", "other1"],
    ["pair1", "other1"],
    ["pair2", "other2"],
  ])
    assert.equal(overlap(a, b), false, `${a} beside ${b}`);
});
