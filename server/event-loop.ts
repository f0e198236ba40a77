// Resolves after the I/O that is already waiting has been handled: I/O callbacks of the
// current loop turn run before setImmediate callbacks.
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** DataLoader options for the work of one event-loop turn, gathered at its end, never cached. */
export const ONE_TURN = { cache: false, batchScheduleFn: (dispatch: () => void) => setImmediate(dispatch) };
