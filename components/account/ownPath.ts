// Where log-in and sign-up send the browser afterwards. A string test ("starts with one /")
// misses the spellings browsers read differently (`/\t/evil.example`, `/\evil.example`,
// `/.//evil.example`): the path is parsed as the browser would, against our own origin, and
// kept only if it stays there; what is returned is the parsed path, never the typed string.
const OWN = "http://own.invalid";

/** `path` (as parsed) if it is one of our own paths, else `fallback`: an open redirect would send people elsewhere after log-in. */
export function ownPath(path: string | undefined, fallback: string): string {
  if (!path?.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(path, OWN);
  } catch {
    return fallback;
  }
  const own = `${url.pathname}${url.search}${url.hash}`;
  // `//host` and `/\host` leave the site; a parsed path can still start so (`/.//evil.example`).
  return url.origin === OWN && !/^[/\\]{2}/.test(own) ? own : fallback;
}

/** Where log-in and sign-up land when nothing else was asked: the library, where the work is (issue 39). */
export const HOME = "/library";
