// The scan writer's thread. The production server (server/http-server.ts) starts it; the
// recorder's buffer stays on the main thread and hands it one batch at a time. Each scan's
// parsing and hashing, and SQLite's synchronous writes, happen here, so that they neither
// slow nor stall the redirects (a 500-scan batch held the event loop for tens of
// milliseconds). Under `next dev` or a serverless host the recorder writes in process.
import { isMainThread, parentPort, Worker } from "node:worker_threads";
import { logError } from "../log";
import { setScanWriter, writeScans, type BufferedScan } from "./recorder";

type Reply = { id: number; stored?: number; error?: string };

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on("message", async ({ id, batch }: { id: number; batch: BufferedScan[] }) => {
    try {
      port.postMessage({ id, stored: await writeScans(batch) } satisfies Reply);
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies Reply);
    }
  });
}

// The thread runs this file under tsx, like the main thread (a worker does not inherit its loader).
const BOOT = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); })`;

/**
 * Starts the thread and sends the recorder's batches to it; a new thread if one dies. If the
 * first cannot start, the recorder goes on writing in process.
 */
export function startScanWriterThread(): void {
  let worker: Worker | null = null;
  let started = false;
  let next = 0;
  const waiting = new Map<number, { resolve: (stored: number) => void; reject: (error: Error) => void }>();
  const thread = () => {
    if (worker) return worker;
    const created = new Worker(BOOT, { eval: true });
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
      worker = null;
      for (const call of waiting.values()) call.reject(new Error("the scan writer thread stopped"));
      waiting.clear();
      if (!started) setScanWriter(writeScans);
    });
    return (worker = created);
  };
  thread();
  setScanWriter(
    (batch) =>
      new Promise<number>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        thread().postMessage({ id, batch });
      }),
  );
}
