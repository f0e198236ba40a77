/** `path` if it is one of our own paths, else `fallback`: an open redirect would send people elsewhere after log-in. */
export const ownPath = (path: string | undefined, fallback: string) => (path && path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : fallback);
