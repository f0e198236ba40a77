// Runs test files, `jobs` processes at a time: a file in the ALONE table waits until nothing
// else runs (but files of its company) and holds the run until it is done; slow files start
// next, longest first; files that may share a process run GROUP_SIZE to one (tests/group.ts),
// the others one each. Each process's output is printed whole when it ends (processes side by
// side never interleave), headed by its files and how long it took; the last lines list the
// slowest. A file that asks for a database of its own (tests/tiers.ts, OWN_DATABASE) runs on a
// fresh one, dropped when it ends. A test still running after TEST_TIMEOUT_SECONDS fails by
// name; a process still running after FILE_TIMEOUT_SECONDS is killed with everything it
// started, and fails with the output it had printed: a file kept alive by a forgotten handle (a
// socket, a timer, a server) would otherwise hold the run until CI's own limit, and show nothing.
import { spawn, type ChildProcess } from "node:child_process";
import { freshDatabase } from "../scripts/harness";

export type FileResult = { file: string; code: number; passed: number; failed: number; seconds: number };

/**
 * The spec reporter's closing counts (`ℹ pass 12`): the last, as a file may print a run of its
 * own. A test that ran out of time counts as cancelled, not failed.
 */
const count = (output: string, what: "pass" | "fail" | "cancelled") =>
  Number([...output.matchAll(new RegExp(`^ℹ ${what} (\\d+)`, "gm"))].at(-1)?.[1] ?? 0);

/** The longest a test may run (the slowest, the cluster's outages under load, take about a minute). */
const TEST_TIMEOUT_SECONDS = 240;
/** The longest a test file may run (the slowest take about 3 minutes on a busy two-core machine). */
const FILE_TIMEOUT_SECONDS = 600;

/** Running children, each leading a process group of its own: killed whole on a timeout or when the run is stopped. */
const processGroups = new Set<ChildProcess>();
const killGroup = (child: ChildProcess) => {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // already gone
  }
};
/** What else to kill when the run is stopped (the run's own server). */
const alsoOnStop: (() => void)[] = [];
export const onStop = (kill: () => void) => alsoOnStop.push(kill);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    for (const child of processGroups) killGroup(child);
    for (const kill of alsoOnStop) kill();
    process.exit(130);
  });

/**
 * A Node process on `args`: its exit code and its output (stdout then stderr as they came);
 * `echo` shows it as it comes too. After `timeoutSeconds` it is killed with every process it
 * started (`timedOut`).
 */
export function runNode(
  args: string[],
  env: NodeJS.ProcessEnv,
  echo = false,
  timeoutSeconds = Infinity,
): Promise<{ code: number; output: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    processGroups.add(child);
    let timedOut = false;
    const timer = Number.isFinite(timeoutSeconds)
      ? setTimeout(() => {
          timedOut = true;
          killGroup(child);
        }, timeoutSeconds * 1000)
      : undefined;
    let output = "";
    const collect = (to: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk;
      if (echo) to.write(chunk);
    };
    child.stdout.on("data", collect(process.stdout));
    child.stderr.on("data", collect(process.stderr));
    // What the file started and left running (a server, a receiver) goes with it; then its
    // pipes close, and the output is whole.
    child.on("exit", () => killGroup(child));
    child.on("close", (code) => {
      clearTimeout(timer);
      processGroups.delete(child);
      resolve({ code: code ?? 1, output, timedOut });
    });
  });
}

/** Files that may share a process run this many to one (tests/group.ts). */
const GROUP_SIZE = 4;

async function runFile(
  files: string[],
  env: NodeJS.ProcessEnv,
  runStarted: number,
  ownDatabase: boolean,
  print: (text: string) => void,
): Promise<FileResult> {
  const started = Date.now();
  const database = ownDatabase ? await freshDatabase("own", env.DATABASE_URL) : null;
  if (database) env = { ...env, DATABASE_URL: database.url };
  // The file itself, not through `--test` (which would start a second process to run it); a
  // group through tests/group.ts.
  const { code, output, timedOut } = await runNode(
    [
      "--import",
      "tsx",
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      // A test still running after TEST_TIMEOUT_SECONDS fails by name, and the file goes on;
      // once every test has ended the file exits, even if a handle it forgot would keep it alive.
      `--test-timeout=${TEST_TIMEOUT_SECONDS * 1000}`,
      "--test-force-exit",
      ...(files.length === 1 ? files : ["tests/group.ts", ...files]),
    ],
    env,
    false,
    FILE_TIMEOUT_SECONDS,
  );
  await database?.cleanup();
  const seconds = (Date.now() - started) / 1000;
  // When it started in the run, too: with files side by side, the gaps show where cores sat idle.
  const at = (started - runStarted) / 1000;
  const late = timedOut ? `: still running after ${FILE_TIMEOUT_SECONDS} s, killed; what it printed until then` : "";
  const file = files.join(" + ");
  print(`\n── ${file} (${seconds.toFixed(1)} s, from +${at.toFixed(0)} s${late})\n${output}`);
  const failures = count(output, "fail") + count(output, "cancelled") + (timedOut ? 1 : 0);
  // A file that failed without a failing test (a crash, a hook) still counts as one failure.
  const failed = failures === 0 && (code !== 0 || timedOut) ? 1 : failures;
  return { file, code: timedOut ? 1 : code, passed: count(output, "pass"), failed, seconds };
}

export async function runFiles(
  files: string[],
  env: NodeJS.ProcessEnv,
  {
    jobs,
    alone,
    company = (file) => file,
    ownDatabase = () => false,
    shared = () => false,
    seconds = () => 0,
    print = (text) => process.stdout.write(text),
  }: {
    jobs: number;
    alone: (file: string) => boolean;
    /** Files that run alone but may run beside each other: the same company (by default each its own). */
    company?: (file: string) => string;
    ownDatabase?: (file: string) => boolean;
    /** Files that may run GROUP_SIZE to a process: no table names them, and they start nothing of their own. */
    shared?: (file: string) => boolean;
    /** How long a slow file is known to take (0: not slow): started first, longest first, in a process of its own. */
    seconds?: (file: string) => number;
    /** Where each process's output and the slowest files go (the run's own output). */
    print?: (text: string) => void;
  },
): Promise<FileResult[]> {
  // Files that run alone first, then the slow ones, longest first: the rest then fill the
  // machine until the end.
  const slow = files.filter((f) => !alone(f) && seconds(f) > 0).sort((a, b) => seconds(b) - seconds(a));
  const sharing = (f: string) => shared(f) && seconds(f) === 0;
  const queue: string[][] = [];
  // Files of one company next to each other, so that they start together.
  const aloneFirst = files.filter(alone).sort((a, b) => company(a).localeCompare(company(b)));
  for (const file of [...aloneFirst, ...slow, ...files.filter((f) => !alone(f) && seconds(f) === 0)]) {
    const last = queue.at(-1);
    const joins = sharing(file) && last !== undefined && last.length < GROUP_SIZE && sharing(last[0]);
    if (joins) last.push(file);
    else queue.push([file]);
  }
  const runStarted = Date.now();
  const results: FileResult[] = [];
  /** The processes running, each with its first file. */
  const running = new Map<Promise<void>, string>();
  const besides = (file: string) =>
    [...running.values()].every(
      (other) => alone(file) === alone(other) && (!alone(file) || company(file) === company(other)),
    );
  while (queue.length > 0) {
    const next = queue[0];
    const room = besides(next[0]) && (alone(next[0]) || running.size < jobs);
    if (!room) {
      await Promise.race(running.keys());
      continue;
    }
    queue.shift();
    const done: Promise<void> = runFile(next, env, runStarted, ownDatabase(next[0]), print).then((r) => {
      results.push(r);
      running.delete(done);
    });
    running.set(done, next[0]);
  }
  await Promise.all(running.keys());
  const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 8);
  print(`\nslowest files: ${slowest.map((r) => `${r.file} ${r.seconds.toFixed(0)} s`).join(", ")}\n`);
  return results;
}
