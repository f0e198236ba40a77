// The server's one background thread: the scan writer and the webhook dispatcher, off the event
// loop that answers redirects and /v1. The production server (server/http/server.ts) starts
// it; under `next dev` or a serverless host both run in process. One thread for both, not one
// each: a thread loads tsx, the module graph, a Prisma client and its query compiler of its own
// (65-70 MB resident), and two thread's worth was most of what held an instance at 400 MB
// (docs/RELIABILITY.md, "Memory per instance").
//
// Scans: the recorder's buffer stays on the main thread, which sends one batch at a time and
// keeps it until the thread answers (by id) that it is written. Each scan's parsing and hashing,
// and SQLite's synchronous writes, happen here (a 500-scan batch held the event loop for tens
// of milliseconds). Webhooks: signing, sending and recording deliveries happen here (on the main
// thread they cost /q more than half of its rate under a scan.created load); the main thread's
// commits wake the dispatcher by message (without a wake it looks every second), and the main
// thread's event-loop utilisation, sampled into shared memory, paces it.
// Sharing the thread, a batch's SQLite writes hold the dispatcher's timers and answers for those
// tens of milliseconds at most: a delivery a little later, never a redirect.
import { performance } from "node:perf_hooks";
import { isMainThread, parentPort, Worker, workerData, type MessagePort } from "node:worker_threads";
import { stopWriting } from "../platform/db";
import { env } from "../platform/env";
import { logError } from "../platform/log";
import { processSingleton } from "../platform/process-singleton";
import { setScanWriter } from "../scan/recorder";
import type { BufferedScan } from "../scan/rows";
import { writeScans } from "../scan/write";
import { startModuleThread } from "../platform/threads";
import { paceBy, sendWakesTo, startDelivering, stopDelivering, wakeDispatcher } from "../webhooks/dispatcher";
import { sealPlainSigningSecrets } from "../webhooks/signing-secret";

type Request = { id: number; batch: BufferedScan[] } | "wake" | "stop-deliveries" | "stop";
type Reply = { id: number; stored?: number; error?: string } | "deliveries-stopped";
/** `deliver`: false once the server is stopping (a thread made again then only writes scans). */
type ThreadData = { role: "background"; busy: SharedArrayBuffer; deliver: boolean };
/** The main thread's utilisation is shared in thousandths. */
const SCALE = 1000;
/** A thread that died is made again after this long (the recorder's next batch makes one sooner). */
const RESTART_MS = 1000;

if (!isMainThread && parentPort && (workerData as ThreadData | null)?.role === "background")
  serve(parentPort, workerData as ThreadData);

/** The thread's side: batches written one at a time, in the order sent; the dispatcher beside them. */
function serve(port: MessagePort, data: ThreadData): void {
  const busy = new Int32Array(data.busy);
  paceBy(() => Atomics.load(busy, 0) / SCALE);
  if (data.deliver) {
    void sealPlainSigningSecrets().catch((error) => logError("webhooks.sealing_failed", {}, error));
    startDelivering();
  }
  let writing: Promise<void> = Promise.resolve();
  let batches = 0;
  const write = async (id: number, batch: BufferedScan[]) => {
    try {
      port.postMessage({ id, stored: await writeScans(batch) } satisfies Reply);
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies Reply);
    }
  };
  port.on("message", (request: Request) => {
    if (request === "wake") wakeDispatcher();
    // Once the requests in flight have ended and are recorded, the main thread is told.
    else if (request === "stop-deliveries")
      void stopDelivering().then(() => port.postMessage("deliveries-stopped" satisfies Reply));
    else if (request === "stop") {
      stopWriting(); // out of SQLite before the process ends (server/platform/db.ts)
      void stopDelivering();
      void writing.then(() => process.exit(0)); // in a thread: ends the thread, from JavaScript
    } else {
      if (++batches === env.backgroundThreadTestExitAt)
        throw new Error(`BACKGROUND_THREAD_TEST_EXIT_AT: the thread dies at its batch ${batches} (tests only)`);
      writing = write(request.id, request.batch);
    }
  });
}

const host = processSingleton("background.thread", () => ({
  worker: null as Worker | null,
  /** Whether a thread ever came online: if the first cannot, the recorder writes in process. */
  started: false,
  stopping: false,
  delivering: true,
  /** Resolves the stop's wait for the deliveries in flight. */
  deliveriesStopped: null as (() => void) | null,
  next: 0,
  waiting: new Map<number, { resolve: (stored: number) => void; reject: (error: Error) => void }>(),
  busy: null as Int32Array | null,
}));

/** Samples the main thread's event-loop utilisation into shared memory, four times a second. */
function sampleBusy(): SharedArrayBuffer {
  if (!host.busy) {
    const busy = (host.busy = new Int32Array(new SharedArrayBuffer(4)));
    let last = performance.eventLoopUtilization();
    setInterval(() => {
      const now = performance.eventLoopUtilization();
      Atomics.store(busy, 0, Math.round(performance.eventLoopUtilization(now, last).utilization * SCALE));
      last = now;
    }, 250).unref();
  }
  return host.busy.buffer as SharedArrayBuffer;
}

/** The running thread, or a new one. */
function thread(): Worker {
  if (host.worker) return host.worker;
  const created = startModuleThread(import.meta.url, {
    workerData: { role: "background", busy: sampleBusy(), deliver: host.delivering } satisfies ThreadData,
  });
  created.on("online", () => (host.started = true));
  created.on("message", (reply: Reply) => {
    if (reply === "deliveries-stopped") return host.deliveriesStopped?.();
    const { id, stored, error } = reply;
    const call = host.waiting.get(id);
    host.waiting.delete(id);
    if (error === undefined) call?.resolve(stored!);
    else call?.reject(new Error(error));
  });
  created.on("error", (error) => logError("background.thread_failed", {}, error));
  created.on("exit", () => {
    host.worker = null;
    sendWakesTo(null);
    // Whatever it was writing is kept by the recorder and sent again to the next thread.
    for (const call of host.waiting.values()) call.reject(new Error("the background thread stopped"));
    host.waiting.clear();
    if (host.stopping) return;
    if (!host.started) setScanWriter(writeScans);
    setTimeout(() => void (host.stopping || thread()), RESTART_MS).unref();
  });
  sendWakesTo(() => created.postMessage("wake" satisfies Request));
  return (host.worker = created);
}

/**
 * Starts the thread and sends the recorder's batches to it; a new thread if one dies. If the
 * first cannot start, the recorder goes on writing in process.
 */
export function startBackgroundThread(): void {
  thread();
  setScanWriter(
    (batch) =>
      new Promise<number>((resolve, reject) => {
        if (host.stopping) return reject(new Error("the background thread is stopping"));
        const id = host.next++;
        host.waiting.set(id, { resolve, reject });
        thread().postMessage({ id, batch } satisfies Request);
      }),
  );
}

/**
 * The stop's first step: no delivery starts any more; the thread goes on writing scans. Resolves
 * once the attempts in flight have ended and their outcomes are recorded (or the thread ended).
 */
export function stopDeliveries(): Promise<void> {
  host.delivering = false;
  const running = host.worker;
  if (!running) return Promise.resolve();
  return new Promise<void>((resolve) => {
    host.deliveriesStopped = resolve;
    running.once("exit", () => resolve());
    running.postMessage("stop-deliveries" satisfies Request);
  });
}

/**
 * Ends the thread before the process exits (the scans it did not write stay in the spool; the
 * deliveries it holds wait for their claims to expire): resolves once it has ended, or after `withinMs`.
 */
export async function stopBackgroundThread(withinMs: number): Promise<void> {
  host.stopping = true;
  const running = host.worker;
  if (!running) return;
  let timer: NodeJS.Timeout | undefined;
  const ended = new Promise<void>((resolve) => running.once("exit", () => resolve()));
  running.postMessage("stop" satisfies Request);
  await Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, withinMs)))]);
  clearTimeout(timer);
}
