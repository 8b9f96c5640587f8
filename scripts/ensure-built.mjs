/* global process, console */
// Runs `npm run build` only when a source is newer than the last build, so `npm start` and
// `npm run admin` start in about a second yet never run stale code after an edit.
// `node scripts/ensure-built.mjs --stamp` (the last step of `npm run build`) records a build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const stamp = path.join(root, 'dist', '.build-stamp');
const watched = [
  'src',
  'scripts',
  'bench',
  'web',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const skipped = new Set(['node_modules', 'dist']);

function newest(p) {
  let st;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of fs.readdirSync(p)) if (!skipped.has(name)) max = Math.max(max, newest(path.join(p, name)));
  return max;
}

if (process.argv.includes('--stamp')) {
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
} else {
  let built = 0;
  try {
    built = fs.statSync(stamp).mtimeMs;
  } catch {
    built = 0;
  }
  const sources = Math.max(...watched.map((w) => newest(path.join(root, w))));
  if (sources > built) {
    console.error(
      built === 0
        ? 'tokentally: building (first run)…'
        : 'tokentally: sources changed since the last build; rebuilding…',
    );
    // The build talks on stderr only: stdout belongs to the command that asked for it (`npm run admin -- keys | …`).
    const r = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '--silent'], {
      cwd: root,
      stdio: ['ignore', 2, 2],
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
