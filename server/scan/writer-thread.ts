// The scan writer's thread. The production server (server/http-server.ts) starts it; the
// recorder's buffer stays on the main thread and hands it one batch at a time. Each scan's
// parsing and hashing, and SQLite's synchronous writes, happen here, so that they neither
// slow nor stall the redirects (a 500-scan batch held the event loop for tens of
// milliseconds). Under `next dev` or a serverless host the recorder writes in process.
// Before the process exits, the thread is stopped (`stopScanWriterThread`): it ends once it is
// out of SQLite, which it never waits inside for long (server/db.ts, LOCK_SLICE_MS).
import { isMainThread, parentPort, Worker } from "node:worker_threads";
import { stopWriting } from "../db";
import { logError } from "../log";
import { startModuleThread } from "../threads";
import { setScanWriter } from "./recorder";
import type { BufferedScan } from "./rows";
import { writeScans } from "./write";

type Reply = { id: number; stored?: number; error?: string };
type Request = { id: number; batch: BufferedScan[] } | "stop";

if (!isMainThread && parentPort) {
  const port = parentPort;
  let writing: Promise<void> = Promise.resolve();
  const write = async (id: number, batch: BufferedScan[]) => {
    try {
      port.postMessage({ id, stored: await writeScans(batch) } satisfies Reply);
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies Reply);
    }
  };
  port.on("message", (request: Request) => {
    if (request !== "stop") writing = write(request.id, request.batch);
    else {
      stopWriting();
      void writing.then(() => process.exit(0)); // in a thread: ends the thread, from JavaScript
    }
  });
}

/**
 * Starts the thread and sends the recorder's batches to it; a new thread if one dies. If the
 * first cannot start, the recorder goes on writing in process.
 */
export function startScanWriterThread(): void {
  let started = false;
  let next = 0;
  const waiting = new Map<number, { resolve: (stored: number) => void; reject: (error: Error) => void }>();
  const thread = () => {
    if (writer.worker) return writer.worker;
    const created = startModuleThread(import.meta.url);
    created.on("online", () => (started = true));
    created.on("message", ({ id, stored, error }: Reply) => {
      const call = waiting.get(id);
      waiting.delete(id);
      if (error === undefined) call?.resolve(stored!);
      else call?.reject(new Error(error));
    });
    created.on("error", (error) => logError("scans.writer_thread_failed", {}, error));
    // Whatever it was writing is kept by the recorder and sent again to the next thread.
    created.on("exit", () => {
      writer.worker = null;
      for (const call of waiting.values()) call.reject(new Error("the scan writer thread stopped"));
      waiting.clear();
      if (!started && !writer.stopping) setScanWriter(writeScans);
    });
    return (writer.worker = created);
  };
  thread();
  setScanWriter(
    (batch) =>
      new Promise<number>((resolve, reject) => {
        if (writer.stopping) return reject(new Error("the scan writer thread is stopping"));
        const id = next++;
        waiting.set(id, { resolve, reject });
        thread().postMessage({ id, batch } satisfies Request);
      }),
  );
}

const writer = { worker: null as Worker | null, stopping: false };

/**
 * Ends the thread before the process exits (the scans it did not write stay in the spool):
 * resolves once it has ended, or after `withinMs`.
 */
export async function stopScanWriterThread(withinMs: number): Promise<void> {
  writer.stopping = true;
  const running = writer.worker;
  if (!running) return;
  let timer: NodeJS.Timeout | undefined;
  const ended = new Promise<void>((resolve) => running.once("exit", () => resolve()));
  running.postMessage("stop" satisfies Request);
  await Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, withinMs)))]);
  clearTimeout(timer);
}
