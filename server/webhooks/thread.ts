// The dispatcher's thread. The production server (server/http-server.ts) starts it, so that signing,
// sending and recording deliveries never take the event loop that answers redirects and /v1
// (on the main thread they cost /q more than half of its rate under a scan.created load). The
// main thread's commits wake it by message; without a wake it looks every second anyway. The main
// thread's event-loop utilisation, sampled four times a second into shared memory, paces it.
import { performance } from "node:perf_hooks";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { stopWriting } from "../db";
import { logError } from "../log";
import { processSingleton } from "../process-singleton";
import { startModuleThread } from "../threads";
import { paceBy, sendWakesTo, startDelivering, stopDelivering, wakeDispatcher } from "./dispatcher";
import { sealPlainSigningSecrets } from "./signing-secret";

type Message = "wake" | "stop";
type ThreadData = { role?: string; busy?: SharedArrayBuffer } | null;
/** The main thread's utilisation is shared in thousandths. */
const SCALE = 1000;

if (!isMainThread && parentPort && (workerData as ThreadData)?.role === "webhooks") {
  const port = parentPort;
  const busy = new Int32Array((workerData as { busy: SharedArrayBuffer }).busy);
  paceBy(() => Atomics.load(busy, 0) / SCALE);
  void sealPlainSigningSecrets().catch((error) => logError("webhooks.sealing_failed", {}, error));
  startDelivering();
  port.on("message", (message: Message) => {
    if (message === "wake") wakeDispatcher();
    else {
      stopWriting(); // out of SQLite before the main thread ends this one (server/db.ts)
      void stopDelivering().then(() => port.close());
    }
  });
}

const thread = processSingleton("webhooks.thread", () => ({ worker: null as Worker | null, stopping: false, busy: null as Int32Array | null }));

/** Samples the main thread's event-loop utilisation into shared memory, once per process. */
function sampleBusy(): SharedArrayBuffer {
  if (!thread.busy) {
    const busy = (thread.busy = new Int32Array(new SharedArrayBuffer(4)));
    let last = performance.eventLoopUtilization();
    setInterval(() => {
      const now = performance.eventLoopUtilization();
      Atomics.store(busy, 0, Math.round(performance.eventLoopUtilization(now, last).utilization * SCALE));
      last = now;
    }, 250).unref();
  }
  return thread.busy.buffer as SharedArrayBuffer;
}

/** Starts the dispatcher's thread; a new one if it dies. */
export function startWebhookDispatcher(): void {
  if (thread.worker) return;
  thread.stopping = false;
  const started = startModuleThread(import.meta.url, { workerData: { role: "webhooks", busy: sampleBusy() } satisfies ThreadData });
  started.on("error", (error) => logError("webhooks.thread_failed", {}, error));
  started.on("exit", () => {
    thread.worker = null;
    sendWakesTo(null);
    if (!thread.stopping) setTimeout(startWebhookDispatcher, 1000).unref();
  });
  thread.worker = started;
  sendWakesTo(() => started.postMessage("wake" satisfies Message));
}

/** Stops it: requests in flight are abandoned, their claims expire and another instance makes them. */
export async function stopWebhookDispatcher(): Promise<void> {
  thread.stopping = true;
  const running = thread.worker;
  if (!running) return;
  const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
  running.postMessage("stop" satisfies Message);
  await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
  await running.terminate();
}
