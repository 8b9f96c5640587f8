/**
 * @fileoverview Builds the CLI package the server hands out at `/cli/tokentally.tgz`: the
 * `tokentally` command bundled with the code it shares with the server (pricing, calendar) into
 * dependency-free ES modules (the command, its read worker and the chunk they share), plus a package.json carrying this package's version, packed by
 * `npm pack` into `dist/cli/tokentally-<version>.tgz`. Nothing native is included: OpenCode's
 * SQLite store is read with `node:sqlite` where Node has it (see src/cli/sqlite.ts).
 *
 * Run by `npm run build` (and so by `prepare` at install time).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { packageInfo } from '../src/package-info.js';

/** Builds the package into `outDir` (staging in `stagingDir`); returns the tarball's path. */
export async function buildCliPackage(outDir: string, stagingDir: string): Promise<string> {
  const { root, version } = packageInfo(import.meta.url);
  const staging = stagingDir;

  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(path.join(staging, 'bin'), { recursive: true });
  fs.mkdirSync(outDir, { recursive: true });

  await build({
    // the command and its read worker (a worker thread loads it by URL beside the command);
    // the code they share goes into one chunk, so the package carries the parsers once
    entryPoints: {
      tokentally: path.join(root, 'src', 'cli', 'main.ts'),
      'read-worker': path.join(root, 'src', 'cli', 'read-worker.ts'),
    },
    outdir: path.join(staging, 'bin'),
    splitting: true,
    chunkNames: '[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.11',
    // better-sqlite3 is only ever an optional, already-installed fallback (never shipped).
    external: ['better-sqlite3'],
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'eof',
    logLevel: 'warning',
  });

  const manifest = {
    name: 'tokentally',
    version,
    description:
      'Reads your AI coding agents’ local logs and uploads half-hour token counts to your Tokentally server.',
    type: 'module',
    license: 'MIT',
    bin: { tokentally: 'bin/tokentally.js' },
    engines: { node: '>=20.11' },
    files: ['bin/'],
  };
  fs.writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(
    path.join(staging, 'README.md'),
    `# tokentally ${version}\n\nThe command-line client of a Tokentally server, installed from that server:\n\n` +
      '```sh\nnpm install -g <server>/cli/tokentally.tgz\ntokentally link --server <server> --code XXXX-XXXX-XXXX\ntokentally sync\n```\n\n' +
      'Update it by running the install line again (not `npm update -g`: the public registry name `tokentally` belongs to an unrelated package).\n',
  );

  for (const old of fs.readdirSync(outDir)) if (old.endsWith('.tgz')) fs.rmSync(path.join(outDir, old));
  execFileSync('npm', ['pack', '--silent', '--pack-destination', outDir], {
    cwd: staging,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      npm_config_nodedir: undefined,
      npm_config_ignore_scripts: 'true',
      npm_config_loglevel: 'error',
    },
  });
  const tgz = path.join(outDir, `tokentally-${version}.tgz`);
  if (!fs.existsSync(tgz)) throw new Error(`npm pack did not produce ${tgz}`);
  return tgz;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = packageInfo(import.meta.url).root;
  const tgz = await buildCliPackage(path.join(root, 'dist', 'cli'), path.join(root, 'dist', 'cli-package'));
  console.error(`cli package: ${path.relative(root, tgz)} (${(fs.statSync(tgz).size / 1024).toFixed(1)} KB packed)`);
}
