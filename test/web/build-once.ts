/**
 * Vitest global setup: builds the dashboard (npm run build:web) once before the suite when
 * dist/web is missing or older than a file under web/, so the served-dashboard and browser tests
 * test the current code.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

export default function setup(): void {
  const built = 'dist/web/build-report.json';
  if (existsSync(built) && statSync(built).mtimeMs >= newest('web')) return;
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
    {
      stdio: 'inherit',
      // Vitest sets NODE_ENV=test, which would make Vite build development React: the budget check
      // and the browser tests must see the bundle `npm run build` makes.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
}
