// POST /v1/bundle (docs/BUNDLE.md): the body spooled to a file as it arrives (a line too long
// ends it: 400), then checked and written in a thread of its own, off the event loop that
// answers redirects and /v1: a million lines' parsing, and SQLite's synchronous writes, would
// hold it for seconds. One import at a time per process: two would only wait for the same
// writer, and each holds a thread (about 70 MB) while it runs.
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import type { Principal } from "../keys/apiKeys";
import { DomainError, type DomainErrorCode, type LineError } from "../platform/errors";
import { processSingleton } from "../platform/process-singleton";
import { startModuleThread } from "../platform/threads";
import { refreshCopy } from "../scan/live-copy";
import { checkBundle } from "./checkBundle";
import { spoolBody, spooledLines, type Lines } from "./spool";
import { writeBundle, type Counts, type Importer, type ImportResult } from "./writeBundle";

/** `longTransactions`: its one transaction holds a connection for as long as the import writes (server/platform/db.ts). */
type Job = { role: "bundle-import"; file: string; importer: Importer; longTransactions: true };
type Reply =
  | { result: ImportResult }
  | { refused: { code: DomainErrorCode; message: string; lines?: LineError[] } }
  | { fault: string };

if (!isMainThread && parentPort && (workerData as Job | null)?.role === "bundle-import") void work(workerData as Job);

/** The thread's side: check, then write; the answer posted, and the thread ended. */
async function work({ file, importer }: Job): Promise<void> {
  let reply: Reply;
  try {
    reply = { result: await checkedAndWritten(() => spooledLines(file), importer) };
  } catch (error) {
    reply =
      error instanceof DomainError
        ? { refused: { code: error.code, message: error.message, lines: error.lines } }
        : { fault: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(reply);
  process.exit(0); // in a thread: ends the thread
}

/** Both readings (a function declaration: the thread calls it while the module is still loading). */
async function checkedAndWritten(lines: Lines, importer: Importer): Promise<ImportResult> {
  return writeBundle(lines, await checkBundle(lines, importer.library), importer);
}

/**
 * A small bundle (a hand-made file, a few codes) is imported in process, its lines held in
 * memory: a thread's start (its module graph) would cost it seconds. Its transaction then never
 * waits for I/O (its lines are read, its SQLite writes synchronous), so no other request's write
 * on this thread comes between.
 */
const SMALL_BUNDLE_BYTES = 256 * 1024;
async function inProcess(file: string, importer: Importer): Promise<ImportResult> {
  const lines: [number, string][] = [];
  for await (const line of spooledLines(file)) lines.push(line);
  return checkedAndWritten(() => lines, importer);
}

function inThread(job: Job): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const worker = startModuleThread(import.meta.url, { workerData: job });
    let replied = false;
    worker.once("message", (reply: Reply) => {
      replied = true;
      if ("result" in reply) resolve(reply.result);
      else if ("refused" in reply) {
        const { code, message, lines } = reply.refused;
        reject(new DomainError(code, message, undefined, undefined, lines));
      } else reject(new Error(`bundle import failed: ${reply.fault}`));
    });
    worker.once("error", reject);
    worker.once("exit", (code) => replied || reject(new Error(`bundle import thread ended (${code})`)));
  });
}

const turns = processSingleton("bundle.imports", () => ({ last: Promise.resolve() as Promise<unknown> }));

/** Who may import: a personal key, or a team admin's (a writer's codes go through review; docs/BUNDLE.md, "Keys"). */
export function importRefusal(principal: Principal): DomainError | null {
  return principal.library.kind === "team" && principal.role !== "admin"
    ? new DomainError("forbidden", "Only a team admin can import a bundle into the team library")
    : null;
}

/** The import's answer: what was created, and what was already there. */
export async function importBundle(
  principal: Principal,
  body: AsyncIterable<Uint8Array> | null,
): Promise<{ created: Counts; skipped: Counts }> {
  const refusal = importRefusal(principal);
  if (refusal) throw refusal;
  const spooled = await spoolBody(body);
  const importer: Importer = { userId: principal.userId, apiKeyId: principal.apiKeyId, library: principal.library };
  const run = turns.last.then(() =>
    spooled.bytes <= SMALL_BUNDLE_BYTES
      ? inProcess(spooled.file, importer)
      : inThread({ role: "bundle-import", file: spooled.file, importer, longTransactions: true }),
  );
  turns.last = run.catch(() => undefined);
  try {
    const { created, skipped, codes } = await run;
    // The redirects' copy for outages (PostgreSQL with Redis), as after any create.
    for (let i = 0; i < codes.length; i += 5000) await refreshCopy(codes.slice(i, i + 5000));
    return { created, skipped };
  } finally {
    await spooled.dispose();
  }
}
