/**
 * @fileoverview What a command needs from the outside world, gathered in one object so tests
 * run commands in-process against temporary directories, captured output and a fake clock.
 */
import type { ApiOptions } from './api.js';
import type { TextSink } from './output.js';
import type { CliEnv } from './paths.js';

export interface CliContext {
  env: CliEnv;
  stdout: TextSink;
  stderr: TextSink;
  /** Whether we may ask the user something. */
  interactive: boolean;
  now: () => number;
  api: ApiOptions;
  /** Ask one question on the terminal (only called when `interactive`). */
  prompt: (question: string) => Promise<string>;
  /** argv prefix that runs this CLI again (hooks): `[node, /path/to/main.js]`. */
  selfCommand: readonly string[];
  platform: string;
  hostname: string;
  /**
   * Runs a system program (systemctl, launchctl, schtasks) for `schedule`; main.ts gives the real
   * one. Without it the command writes its files and prints what to run.
   */
  runProgram?: (cmd: string, args: readonly string[]) => { code: number; output: string };
}

/** Thrown by commands for a user-facing failure; main prints the message and exits non-zero. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
