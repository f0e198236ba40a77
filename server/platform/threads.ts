// The server's own worker thread (server/http/background-thread.ts: the scan writer and the webhook
// dispatcher in one), made here with its bounds. It runs its module under tsx, like the main
// thread (a worker does not inherit its loader), and so holds a module graph, a Prisma client
// and its query compiler of its own: about 65-70 MB resident, which is why there is one for both
// (docs/RELIABILITY.md, "Memory per instance").
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * The thread's V8 heap, bounded. V8 sizes a new isolate's young generation for throughput
 * (32 MB committed per thread on this machine, of which 1-4 MB was in use); the thread is handed
 * batches and deliveries, not a request rate, so 8 MB, as the image pool's. The old generation
 * held 17-32 MB per role under the cluster bench's load: 128 MB bounds a leak to the thread
 * (which is then made again) instead of the process.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 8 };

/** A thread that runs the module at `moduleUrl` (its `import.meta.url`) under tsx. */
export function startModuleThread(
  moduleUrl: string,
  options: Omit<WorkerOptions, "eval" | "resourceLimits"> = {},
): Worker {
  const boot = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(moduleUrl)}); })`;
  return new Worker(boot, { ...options, eval: true, resourceLimits: THREAD_LIMITS });
}
