// The start-up steps that must not run twice at once on one embedded database (its migration,
// the demo accounts' seed) take turns through a lock of the operating system: SQLite's
// exclusive lock on a small file beside the database, `<file>.start-lock`. Two `npm start`s
// on a new file at the same moment: one migrates and seeds, the other waits, then finds
// nothing left to do. The lock goes with its process, however that process ends.
import Database from "better-sqlite3";

/** How long a start waits for another's migration (a large SQLite file can take minutes). */
const WAIT_MS = 300_000;

/** Runs `step` holding the lock of the embedded database `file`. */
export async function inStartTurn<T>(file: string, step: () => Promise<T>): Promise<T> {
  const lockFile = `${file}.start-lock`;
  // SQLite waits for the lock by sleeping in this thread: nothing else runs here meanwhile.
  const lock = new Database(lockFile, { timeout: WAIT_MS });
  try {
    lock.prepare("BEGIN EXCLUSIVE").run();
  } catch (error) {
    lock.close();
    if (!String((error as { code?: string }).code).startsWith("SQLITE_BUSY")) throw error;
    throw new Error(
      `another process has been migrating ${file} for over ${WAIT_MS / 1000} s (it holds ${lockFile}): let it finish, then start again`,
    );
  }
  try {
    return await step();
  } finally {
    lock.close(); // rolls back, which frees the lock
  }
}
