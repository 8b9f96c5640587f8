/**
 * @fileoverview Small, crash-safe JSON file helpers: a missing or corrupt file reads as
 * `undefined`, and writes go to a temporary file that is renamed over the target, so a
 * crash never leaves half a state file behind.
 */
import fs from 'node:fs';
import path from 'node:path';

export function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Write `value` as JSON atomically; files are private to the user by default (they name projects and paths). */
export function writeJsonAtomic(file: string, value: unknown, mode = 0o600): void {
  writeFileAtomic(file, JSON.stringify(value), mode);
}

export function writeFileAtomic(file: string, text: string, mode = 0o600): void {
  writeFilesDurablySync([{ file, text }], mode);
}

/** A file to write as part of a {@link writeFilesDurably} batch. */
export interface PendingFile {
  file: string;
  text: string;
}

/** Files kept open at once by a batch write (a state may have hundreds of shard files). */
const BATCH_FDS = 64;

interface OpenFile {
  fd: number;
  tmp: string;
  file: string;
}

/** Each file written to its temporary name and left open for its flush. */
function writeTemps(chunk: readonly PendingFile[], mode: number): OpenFile[] {
  const open: OpenFile[] = [];
  try {
    for (const f of chunk) {
      fs.mkdirSync(path.dirname(f.file), { recursive: true, mode: 0o700 });
      const tmp = `${f.file}.${process.pid}.tmp`;
      const fd = fs.openSync(tmp, 'w', mode);
      open.push({ fd, tmp, file: f.file });
      fs.writeSync(fd, f.text);
      fs.fchmodSync(fd, mode);
    }
    return open;
  } catch (err) {
    abandon(open);
    throw err;
  }
}

function abandon(open: readonly OpenFile[]): void {
  for (const o of open) {
    fs.closeSync(o.fd);
    fs.rmSync(o.tmp, { force: true });
  }
}

function renameAll(open: readonly OpenFile[]): void {
  for (const o of open) {
    fs.closeSync(o.fd);
    fs.renameSync(o.tmp, o.file);
  }
}

/**
 * Write `files` as {@link writeFileAtomic} does, but flush them together: every file of a chunk
 * is written to its temporary name first, then all are fsynced side by side on libuv's threads,
 * then renamed into place. One file's flush carries the metadata of the others, and a disk
 * serves flushes side by side faster than one after another: a first read of a large history
 * writes hundreds of shard files.
 */
export async function writeFilesDurably(files: readonly PendingFile[], mode = 0o600): Promise<void> {
  for (let at = 0; at < files.length; at += BATCH_FDS) {
    const open = writeTemps(files.slice(at, at + BATCH_FDS), mode);
    try {
      await Promise.all(
        open.map((o) => new Promise<void>((resolve, reject) => fs.fsync(o.fd, (e) => (e ? reject(e) : resolve())))),
      );
    } catch (err) {
      abandon(open);
      throw err;
    }
    renameAll(open);
  }
}

/** {@link writeFilesDurably} on this thread, one flush after another. */
export function writeFilesDurablySync(files: readonly PendingFile[], mode = 0o600): void {
  for (let at = 0; at < files.length; at += BATCH_FDS) {
    const open = writeTemps(files.slice(at, at + BATCH_FDS), mode);
    try {
      for (const o of open) fs.fsyncSync(o.fd);
    } catch (err) {
      abandon(open);
      throw err;
    }
    renameAll(open);
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
