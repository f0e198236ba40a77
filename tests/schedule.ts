// Runs jobs (test files, each in a node:test process of its own, and the Playwright run) from one
// pool of slots, so that the runs on both backends and the browser specs fill the same cores
// instead of waiting on each other. A job marked `alone` waits until nothing else runs and holds
// the pool until it is done; the others start longest-expected first. Each job's output is
// printed whole when it ends (jobs running side by side never interleave), headed by its name,
// how long it took and when it started in the run; the last lines list the slowest.
import { spawn } from "node:child_process";

export type JobResult = { name: string; code: number; passed: number; failed: number; seconds: number };

export type Job = {
  name: string;
  /** Runs with nothing else beside it (tests/tiers.ts's ALONE). */
  alone: boolean;
  /** How many of the pool's slots it holds while it runs (the Playwright run: one per worker). */
  slots: number;
  run: () => Promise<{ code: number; output: string; passed: number; failed: number }>;
};

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

/** node:test's spec report on stdout; its closing counts say what passed. */
async function nodeTest(args: string[], env: NodeJS.ProcessEnv) {
  const { code, output } = await runNode(
    ["--import", "tsx", "--test-reporter=spec", "--test-reporter-destination=stdout", ...args],
    env,
  );
  return { code, output, passed: count(output, "pass"), failed: count(output, "fail") };
}

/** A node:test file as a job; `label` names its run when several runs share the pool. */
export function fileJob(file: string, env: NodeJS.ProcessEnv, alone: boolean, label = ""): Job {
  // The file itself, not through `--test` (which would start a second process to run it).
  return { name: label ? `${file} [${label}]` : file, alone, slots: 1, run: () => nodeTest([file], env) };
}

/**
 * Files that share a process, one after the other (`--test-isolation=none`): for the unit tier,
 * whose files compute for milliseconds, a process each cost most of its CPU-seconds (loading
 * Node, tsx and the modules again per file: 80 CPU-s a process each, 30 in one).
 */
export function sharedProcessJob(files: string[], env: NodeJS.ProcessEnv, name: string): Job {
  return { name, alone: false, slots: 1, run: () => nodeTest(["--test", "--test-isolation=none", ...files], env) };
}

/** Runs `jobs` in the order given (alone ones first), `slots` at a time. */
export async function runJobs(jobs: Job[], slots: number): Promise<JobResult[]> {
  const queue = [...jobs.filter((j) => j.alone), ...jobs.filter((j) => !j.alone)];
  const runStarted = Date.now();
  const results: JobResult[] = [];
  const running = new Map<Promise<void>, number>();
  const used = () => [...running.values()].reduce((n, s) => n + s, 0);
  while (queue.length > 0) {
    const next = queue[0];
    // A job wider than the pool runs once the pool is empty.
    const room = next.alone ? running.size === 0 : running.size === 0 || used() + next.slots <= slots;
    if (!room) {
      await Promise.race(running.keys());
      continue;
    }
    queue.shift();
    const started = Date.now();
    const done: Promise<void> = next.run().then((r) => {
      const seconds = (Date.now() - started) / 1000;
      // When it started in the run, too: the gaps show where cores sat idle.
      const at = (started - runStarted) / 1000;
      process.stdout.write(`\n── ${next.name} (${seconds.toFixed(1)} s, from +${at.toFixed(0)} s)\n${r.output}`);
      results.push({ name: next.name, code: r.code, passed: r.passed, failed: r.failed, seconds });
      running.delete(done);
    });
    running.set(done, next.slots);
    if (next.alone) await done;
  }
  await Promise.all(running.keys());
  const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 8);
  console.log(`\nslowest files: ${slowest.map((r) => `${r.name} ${r.seconds.toFixed(0)} s`).join(", ")}`);
  return results;
}
