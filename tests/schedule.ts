// Runs test files, each in a node:test process of its own, `jobs` at a time; a file in the
// ALONE table waits until nothing else runs and holds the run until it is done. Each file's
// output is printed whole when it ends (files running side by side never interleave), headed by
// its name and how long it took; the last lines list the slowest files.
import { spawn } from "node:child_process";

export type FileResult = { file: string; code: number; passed: number; failed: number; seconds: number };

/** The spec reporter's closing counts (`ℹ pass 12`). */
const count = (output: string, what: "pass" | "fail") =>
  Number(new RegExp(`^ℹ ${what} (\\d+)`, "m").exec(output)?.[1] ?? 0);

/** A Node process on `args`: its exit code and its output (stdout then stderr as they came); `echo` shows it as it comes too. */
export function runNode(
  args: string[],
  env: NodeJS.ProcessEnv,
  echo = false,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const collect = (to: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk;
      if (echo) to.write(chunk);
    };
    child.stdout.on("data", collect(process.stdout));
    child.stderr.on("data", collect(process.stderr));
    child.on("exit", (code) => resolve({ code: code ?? 1, output }));
  });
}

async function runFile(file: string, env: NodeJS.ProcessEnv, runStarted: number): Promise<FileResult> {
  const started = Date.now();
  // The file itself, not through `--test` (which would start a second process to run it).
  const { code, output } = await runNode(
    ["--import", "tsx", "--test-reporter=spec", "--test-reporter-destination=stdout", file],
    env,
  );
  const seconds = (Date.now() - started) / 1000;
  // When it started in the run, too: with files side by side, the gaps show where cores sat idle.
  const at = (started - runStarted) / 1000;
  process.stdout.write(`\n── ${file} (${seconds.toFixed(1)} s, from +${at.toFixed(0)} s)\n${output}`);
  return { file, code, passed: count(output, "pass"), failed: count(output, "fail"), seconds };
}

export async function runFiles(
  files: string[],
  env: NodeJS.ProcessEnv,
  { jobs, alone }: { jobs: number; alone: (file: string) => boolean },
): Promise<FileResult[]> {
  // Files that run alone first: the rest then fill the machine until the end.
  const queue = [...files.filter(alone), ...files.filter((f) => !alone(f))];
  const runStarted = Date.now();
  const results: FileResult[] = [];
  const running = new Set<Promise<void>>();
  while (queue.length > 0) {
    const next = queue[0];
    const room = alone(next) ? running.size === 0 : running.size < jobs;
    if (!room) {
      await Promise.race(running);
      continue;
    }
    queue.shift();
    const done: Promise<void> = runFile(next, env, runStarted).then((r) => {
      results.push(r);
      running.delete(done);
    });
    running.add(done);
    if (alone(next)) await done;
  }
  await Promise.all(running);
  const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 8);
  console.log(`\nslowest files: ${slowest.map((r) => `${r.file} ${r.seconds.toFixed(0)} s`).join(", ")}`);
  return results;
}
