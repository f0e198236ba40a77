// The image pool: worker threads (piscina) that draw the QR images off the event loop. The
// production server (server/http-server.ts) starts it; Next's bundle never imports this file
// and finds the pool through server/images/renderer.ts's shared state.
import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import { logError } from "../log";
import { renderHere, setImageRenderer, type RenderJob, type Rendered } from "./renderer";

/** Starts the pool and routes every image through it. If it cannot start, images are drawn in process. */
export function startImagePool(): void {
  try {
    const threads = Math.max(1, Math.min(4, availableParallelism() - 1));
    const pool = new Piscina<RenderJob, Rendered>({
      filename: new URL("./render-worker.mjs", import.meta.url).href,
      minThreads: 1,
      maxThreads: threads,
      idleTimeout: 60_000,
    });
    pool.on("error", (error) => logError("images.pool_failed", {}, error));
    setImageRenderer(async (job) => {
      try {
        return await pool.run(job);
      } catch (error) {
        // A thread that died (not a bad record: those are refused before drawing): draw here.
        logError("images.pool_render_failed", {}, error);
        return renderHere(job);
      }
    });
  } catch (error) {
    logError("images.pool_not_started", {}, error);
  }
}
