/**
 * @fileoverview Recursive file discovery for agent log trees. Missing directories are simply
 * empty; unreadable ones are skipped. Symlinked directories are not followed (no loops).
 */
import fs from 'node:fs';
import path from 'node:path';

/** Every file under `root` (to `maxDepth` levels) whose name passes `accept`, sorted. */
export function walkFiles(root: string, accept: (name: string, dir: string) => boolean, maxDepth = 12): string[] {
  const out: string[] = [];
  const visit = (dir: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (depth < maxDepth) visit(full, depth + 1);
      } else if ((e.isFile() || e.isSymbolicLink()) && accept(e.name, dir)) {
        out.push(full);
      }
    }
  };
  visit(root, 0);
  return out.sort();
}

/** Immediate subdirectories of `dir` (none when it does not exist). */
export function subdirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
}
