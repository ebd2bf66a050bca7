import fs from "node:fs";

/**
 * The pid file a running server keeps next to its database, so tools that must not run beside it
 * (db:restore) can tell. A file left by a crash names a dead process and counts as none.
 */
export function pidFileOf(databasePath: string): string {
  return `${databasePath}.pid`;
}

export function writePidFile(databasePath: string): void {
  fs.writeFileSync(pidFileOf(databasePath), String(process.pid));
}

export function removePidFile(databasePath: string): void {
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
