// The image pool: worker threads (piscina) that draw the QR images off the event loop. The
// production server (server/http/server.ts) starts it; Next's bundle never imports this file
// and finds the pool through server/images/renderer.ts's shared state.
import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import { logError } from "../platform/log";
import { checkHere, renderHere, setImageRenderer, type CheckJob, type RenderJob } from "./renderer";

/**
 * Each thread's V8 heap, bounded: Skia's canvases live in native memory that is freed when
 * their JS objects are collected, and a small heap is collected often (memory measured over
 * 500 images with the ZIP downloads: an 8 MB young generation grew the server by 25-27 MB
 * with two test runs at once, 16 MB by 38-52 MB).
 */
const THREAD_HEAP_MB = 96;

/** Starts the pool and routes every image through it. If it cannot start, images are drawn in process. */
export function startImagePool(): void {
  try {
    const threads = Math.max(1, Math.min(4, availableParallelism() - 1));
    const pool = new Piscina({
      filename: new URL("./render-worker.mjs", import.meta.url).href,
      // No thread until an image is asked for, and none a minute after the last: an idle
      // drawing thread (Skia, its fonts, a V8 heap) holds about 50 MB resident.
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB, maxYoungGenerationSizeMb: 8 },
    });
    pool.on("error", (error) => logError("images.pool_failed", {}, error));
    // A thread that died (not a bad record: those are refused before drawing): draw here.
    const orHere = async <J, R>(job: J, name: string, here: (job: J) => Promise<R>): Promise<R> => {
      try {
        return await pool.run(job, { name });
      } catch (error) {
        logError("images.pool_render_failed", { task: name }, error);
        return here(job);
      }
    };
    setImageRenderer({
      render: (job: RenderJob) => orHere(job, "default", renderHere),
      check: (job: CheckJob) => orHere(job, "check", checkHere),
    });
  } catch (error) {
    logError("images.pool_not_started", {}, error);
  }
}
