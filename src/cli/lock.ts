/**
 * @fileoverview A lock file so two syncs (a hook firing while the user runs one) never run at
 * once. Created with O_EXCL; a lock whose process is gone, or that is older than an hour, is
 * stale and taken over.
 */
import fs from 'node:fs';
import path from 'node:path';

const STALE_MS = 60 * 60 * 1000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Take the lock, or return `undefined` when another live process holds it. */
export function acquireLock(file: string): { release: () => void } | undefined {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, at: Date.now() }));
      fs.closeSync(fd);
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          fs.unlinkSync(file);
        } catch {
          // already removed
        }
      };
      process.once('exit', release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (!isStale(file)) return undefined;
      try {
        fs.unlinkSync(file);
      } catch {
        // someone else removed it first
      }
    }
  }
  return undefined;
}

function isStale(file: string): boolean {
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid?: unknown; at?: unknown };
    const pid = typeof info.pid === 'number' ? info.pid : 0;
    const at = typeof info.at === 'number' ? info.at : 0;
    return pid <= 0 || !alive(pid) || Date.now() - at > STALE_MS;
  } catch {
    // unreadable or half-written: stale only if old
    try {
      return Date.now() - fs.statSync(file).mtimeMs > 10_000;
    } catch {
      return true;
    }
  }
}

export function isLocked(file: string): boolean {
  return fs.existsSync(file) && !isStale(file);
}
