/**
 * @fileoverview This package's root directory and version, found by walking up from the calling
 * module to the nearest `package.json` named `tokentally`. The same code serves the server (run
 * from `src/` under tsx or from `dist/src/` after a build) and the standalone CLI bundle (whose
 * own package.json carries the same version), so the two always report the versions they ship.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PackageInfo {
  /** Directory holding the package.json. */
  readonly root: string;
  readonly version: string;
}

const cache = new Map<string, PackageInfo>();

/** The nearest enclosing `tokentally` package of `moduleUrl` (default: this file). */
export function packageInfo(moduleUrl: string = import.meta.url): PackageInfo {
  const start = path.dirname(fileURLToPath(moduleUrl));
  const hit = cache.get(start);
  if (hit !== undefined) return hit;
  for (let dir = start; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    try {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'tokentally' && typeof pkg.version === 'string') {
        const info = { root: dir, version: pkg.version };
        cache.set(start, info);
        return info;
      }
    } catch {
      // no package.json here (or unreadable): keep walking up
    }
    if (path.dirname(dir) === dir) break;
  }
  const unknown = { root: start, version: '0.0.0-unknown' };
  cache.set(start, unknown);
  return unknown;
}
