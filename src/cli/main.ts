#!/usr/bin/env node
/**
 * @fileoverview Entry point of the `tokentally` command: builds the real context (process
 * environment, terminal, clock, network) and runs the dispatcher.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import readline from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { defaultApiOptions } from './api.js';
import { runCli } from './cli.js';
import type { CliContext } from './context.js';

// Output into a closed pipe (`tokentally status | head -1`) is the reader saying "enough": end quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

const ctx: CliContext = {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  interactive: process.stdin.isTTY === true && process.stdout.isTTY === true,
  now: () => Date.now(),
  api: defaultApiOptions,
  prompt: async (question) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  },
  selfCommand: [process.execPath, fileURLToPath(import.meta.url)],
  platform: process.platform,
  hostname: os.hostname(),
  runProgram: (cmd, args) => {
    const r = spawnSync(cmd, [...args], { encoding: 'utf8', timeout: 30_000 });
    return { code: r.status ?? 1, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error?.message ?? ''}`.trim() };
  },
};

runCli(process.argv.slice(2), ctx).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: ${String(err)}\n`);
    process.exitCode = 1;
  },
);
