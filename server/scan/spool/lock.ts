// The spool's directory is one process's: a lock file holds its id. A lock whose process died
// is taken over; a live process's refuses the start.
import fs from "node:fs";
import path from "node:path";

export class SpoolInUseError extends Error {}

/** Takes the directory's lock, or throws SpoolInUseError when another live process holds it. */
export function lockDirectory(dir: string): void {
  const file = path.join(dir, "lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(fs.readFileSync(file, "utf8").trim());
      if (pid > 0 && pid !== process.pid && alive(pid))
        throw new SpoolInUseError(
          `the scan spool ${path.resolve(dir)} is in use by process ${pid}: every instance needs a SCAN_SPOOL_DIR of its own`,
        );
      fs.rmSync(file, { force: true }); // left by a process that died
    }
  }
  throw new SpoolInUseError(`the scan spool ${path.resolve(dir)} was taken by another process while this one started`);
}

/** The directory free for the next process. */
export function unlockDirectory(dir: string): void {
  fs.rmSync(path.join(dir, "lock"), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
