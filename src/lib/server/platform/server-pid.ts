import fs from "node:fs";

/**
 * The pid file a running server keeps next to its database, so tools that must not run beside it
 * (db:restore) can tell. A file left by a crash names a dead process and counts as none.
 */
export function pidFileOf(databasePath: string): string {
  return `${databasePath}.pid`;
}

/**
 * Writes the pid file; a refusal (a full disk: ENOSPC, a read-only folder) is returned as the reason,
 * never thrown — a portal that cannot write its pid file still serves (main.ts says so and tries again).
 */
export function writePidFile(databasePath: string): string | null {
  try {
    fs.writeFileSync(pidFileOf(databasePath), String(process.pid));
    return null;
  } catch (error) {
    // A half-written file (the disk filled mid-write) would name no process: better none.
    try {
      fs.rmSync(pidFileOf(databasePath), { force: true });
    } catch {
      // Nothing written, or a folder we cannot change: either way no file names us.
    }
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

export function removePidFile(databasePath: string): void {
  // Only our own: a file we could not write may be another process's, or a crashed one's.
  try {
    if (fs.readFileSync(pidFileOf(databasePath), "utf8").trim() !== String(process.pid)) return;
  } catch {
    return;
  }
  fs.rmSync(pidFileOf(databasePath), { force: true });
}

/** The pid of a live server using this database, or null. */
export function runningServerPid(databasePath: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFileOf(databasePath), "utf8").trim());
  } catch {
    return null;
  }
  return isProcessAlive(pid) ? pid : null;
}

/** Whether a process with this id exists (one owned by another user counts). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
