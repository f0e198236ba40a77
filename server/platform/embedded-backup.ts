// Backup and restore of the embedded SQLite database (`npm run admin -- backup|restore <file>`).
// A backup is taken online, while servers run and record scans: `VACUUM INTO` copies the
// database as one read transaction sees it (WAL mode lets the writers go on meanwhile), so the
// copy is consistent, holds every transaction committed before it began, and is compacted.
// A restore replaces the database file, so it refuses while any server uses it: each server
// on an embedded database leaves its process id in `<file>.servers/` while it runs.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

const serversDir = (file: string) => `${file}.servers`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** The process ids of the servers using `file` now (files left by crashed servers are removed). */
export function serversUsing(file: string): number[] {
  const dir = serversDir(file);
  if (!existsSync(dir)) return [];
  const pids: number[] = [];
  for (const name of readdirSync(dir)) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) pids.push(pid);
    else rmSync(path.join(dir, name), { force: true });
  }
  return pids;
}

/** Called by a server at start; the returned function, at exit. */
export function registerServer(file: string): () => void {
  const dir = serversDir(file);
  mkdirSync(dir, { recursive: true });
  const mine = path.join(dir, String(process.pid));
  writeFileSync(mine, `${new Date().toISOString()}\n`);
  return () => {
    rmSync(mine, { force: true });
    try {
      rmdirSync(dir); // the last server out removes the folder
    } catch {
      // another server still uses the database, or the folder is gone
    }
  };
}

/** Copies the live database to `target` (which must not exist). */
export function backupEmbedded(file: string, target: string): { bytes: number } {
  if (!existsSync(file)) throw new Error(`No database at ${file}`);
  if (existsSync(target)) throw new Error(`${target} exists: choose a new file`);
  const source = new Database(file, { fileMustExist: true });
  try {
    source.pragma("busy_timeout = 10000");
    source.prepare("VACUUM INTO ?").run(path.resolve(target));
  } finally {
    source.close();
  }
  check(target);
  return { bytes: statSync(target).size };
}

/** A backup that SQLite finds intact and that holds the migrations table. */
function check(file: string): void {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = db.prepare("PRAGMA integrity_check").pluck().get();
    if (integrity !== "ok") throw new Error(`${file} is damaged: ${String(integrity)}`);
    db.prepare(`SELECT count(*) FROM "_prisma_migrations"`).get();
  } catch (error) {
    throw new Error(`${file} is not a backup of this service's database: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

/**
 * Replaces the database with `backup`, keeping the current one beside it
 * (`<file>.before-restore-<time>`). Refuses while a server uses the database.
 */
export function restoreEmbedded(file: string, backup: string): { kept: string | null } {
  const users = serversUsing(file);
  if (users.length > 0)
    throw new Error(`Refusing to restore: a server uses ${file} (process ${users.join(", ")}); stop it first`);
  check(backup);
  let kept: string | null = null;
  if (existsSync(file)) {
    // Fold the WAL into the file, so the kept copy is whole.
    const current = new Database(file);
    current.pragma("wal_checkpoint(TRUNCATE)");
    current.close();
    kept = `${file}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    renameSync(file, kept);
  }
  for (const suffix of ["-wal", "-shm"]) if (existsSync(file + suffix)) unlinkSync(file + suffix);
  const temporary = `${file}.restoring`;
  copyFileSync(backup, temporary);
  renameSync(temporary, file);
  return { kept };
}
