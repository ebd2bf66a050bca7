import fs from "node:fs";

/**
 * SQLite in WAL mode opens a database only with its shared-memory index (`db.sqlite-shm`, 32 KiB),
 * created by the first connection and removed by the last: on a disk with no byte left, a restart
 * could not open the database at all. The gate keeps this much reserved next to the database
 * (`db.sqlite.reserva`, written while there is space) and frees it when the database will not open,
 * so a start on a full disk still serves reads (docs/decisions.md).
 */
export const RESERVE_BYTES = 256 * 1024;

export function reserveFileOf(databasePath: string): string {
  return `${databasePath}.reserva`;
}

/** Writes the reserve if it is missing or short; returns why it could not (ENOSPC…), or null. */
export function keepReserve(databasePath: string): string | null {
  const file = reserveFileOf(databasePath);
  try {
    if (fs.statSync(file).size >= RESERVE_BYTES) return null;
  } catch {
    // Missing: written below.
  }
  try {
    fs.writeFileSync(file, Buffer.alloc(RESERVE_BYTES));
    return null;
  } catch (error) {
    try {
      fs.rmSync(file, { force: true });
    } catch {
      // Nothing more to free.
    }
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

/** Removes the reserve; true when there was one to free. */
export function freeReserve(databasePath: string): boolean {
  try {
    fs.rmSync(reserveFileOf(databasePath));
    return true;
  } catch {
    return false;
  }
}
