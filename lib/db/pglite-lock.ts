import fs from "node:fs";
import os from "node:os";

/**
 * PGlite has no locking of its own: two processes on one folder silently lose writes. Sesame takes an
 * exclusive lock file next to the database before opening it, and refuses to start when another live
 * process holds it. A lock left by a process that died is taken over.
 */
export class DatabaseLocked extends Error {
  override name = "DatabaseLocked";
}

interface LockInfo {
  pid: number;
  hostname: string;
  startedAt: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readLock(lockPath: string): LockInfo | undefined {
  try {
    return JSON.parse(fs.readFileSync(lockPath, "utf8")) as LockInfo;
  } catch {
    return undefined;
  }
}

/** The pid of the live process on this host that holds the lock at `lockPath`, if any. */
export function lockHolder(lockPath: string): number | undefined {
  const holder = readLock(lockPath);
  return holder && holder.hostname === os.hostname() && isAlive(holder.pid) ? holder.pid : undefined;
}

/** Takes the lock or throws DatabaseLocked; returns the function that releases it. */
export function acquireDataDirLock(lockPath: string, databaseDir: string): () => void {
  const info: LockInfo = { pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, JSON.stringify(info), { flag: "wx", mode: 0o600 });
      const release = () => {
        if (readLock(lockPath)?.pid === process.pid) fs.rmSync(lockPath, { force: true });
        process.off("exit", release);
      };
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readLock(lockPath);
      const sameHost = holder?.hostname === os.hostname();
      if (holder && sameHost && holder.pid !== process.pid && isAlive(holder.pid)) {
        throw new DatabaseLocked(
          `The embedded database in ${databaseDir} is in use by another Sesame process (pid ${holder.pid}, ` +
            `started ${holder.startedAt}). Stop that process first, point SESAME_DATA_DIR at another folder, ` +
            `or use Postgres (DATABASE_URL) to run several processes at once.`,
        );
      }
      if (holder && !sameHost) {
        throw new DatabaseLocked(
          `The embedded database in ${databaseDir} is locked by host ${holder.hostname} (pid ${holder.pid}). ` +
            `If no process there uses it any more, delete ${lockPath}.`,
        );
      }
      // The holder is gone (or the file is unreadable): take the lock over.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseLocked(`Could not take the lock ${lockPath}.`);
}
