// Resolves after the I/O that is already waiting has been handled: I/O callbacks of the
// current loop turn run before setImmediate callbacks.
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
