// What the service keeps on disk stays its owner's (issue 37): the embedded database (password
// hashes, sealed secrets, scans), data/secrets.json, the mail outbox (live reset links), the scan
// spool (client addresses) and backups. Folders 0700, files 0600: a umask for everything a
// process creates from now on (SQLite's -wal and -shm, backups, Next's caches), and at start a
// pass that tightens what an older version or another umask left readable to others.
import { chmodSync, existsSync, lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { sqliteFileOf } from "./database-url";
import { env } from "./env";
import { logWarn } from "./log";

/** New files 0600, new folders 0700, in this process and those it starts (main thread only). */
export function keepNewFilesPrivate(): void {
  process.umask(0o077);
}

/** The app's own folders (walked whole) and the embedded database's files. */
function knownPaths(): { folders: string[]; files: string[] } {
  const folders = [path.resolve("data"), path.resolve(env.mailOutboxDir), path.resolve(env.scanSpoolDir)];
  if (env.backend !== "sqlite") return { folders, files: [] };
  const database = sqliteFileOf(env.databaseUrl);
  return {
    folders: [...folders, `${database}.servers`],
    files: ["", "-wal", "-shm", "-journal"].map((suffix) => database + suffix),
  };
}

/**
 * Takes group and other permissions off the known folders, everything under them and the
 * database's files. Only what this user owns, never through a link, never a shared sticky
 * folder (an outbox pointed at /tmp): a file it cannot change is logged, and the start goes on.
 */
export function tightenDataFiles(): void {
  const { folders, files } = knownPaths();
  const uid = process.getuid?.();
  const tighten = (target: string, walk: boolean) => {
    try {
      const stat = lstatSync(target);
      if ((uid !== undefined && stat.uid !== uid) || stat.isSymbolicLink() || stat.mode & 0o1000) return;
      if (stat.mode & 0o077) chmodSync(target, stat.mode & 0o700);
      if (walk && stat.isDirectory()) for (const name of readdirSync(target)) tighten(path.join(target, name), true);
    } catch (error) {
      // Gone meanwhile (a test's database removed): nothing to keep private.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") logWarn("files.not_tightened", { path: target }, error);
    }
  };
  for (const folder of folders) if (existsSync(folder)) tighten(folder, true);
  for (const file of files) if (existsSync(file)) tighten(file, false);
}
