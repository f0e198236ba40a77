// Resolves after the I/O that is already waiting has been handled: I/O callbacks of the
// current loop turn run before setImmediate callbacks.
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Resolves once the event loop has polled for I/O again, so that a request that arrived while
 * the caller worked (a redirect) is served before it goes on. Heavy work of one request yields
 * with it between its parts: `nextTurn` called from an I/O callback resumes in the same loop
 * turn, before anything new is read (an immediate queued by an immediate waits for the next turn).
 */
export const yieldToIo = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/** Work between two polls for I/O at most (ms): a redirect waiting behind a loop of checks waits no longer. */
const SLICE_MS = 4;

/**
 * For a loop of many small checks: call the answer between two of them; it yields to I/O
 * (`yieldToIo`) once SLICE_MS have passed since the last poll, and resolves at once before.
 */
export function inSlices(ms = SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < ms) return undefined;
    return yieldToIo().then(() => {
      since = performance.now();
    });
  };
}

/** DataLoader options for the work of one event-loop turn, gathered at its end, never cached. */
export const ONE_TURN = { cache: false, batchScheduleFn: (dispatch: () => void) => setImmediate(dispatch) };
