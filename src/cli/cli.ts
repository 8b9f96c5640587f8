/**
 * @fileoverview Command dispatch: `tokentally <command> [options]`. Each command lives in
 * commands/<name>.ts and receives the remaining arguments and a {@link CliContext}.
 */
import type { CliContext } from './context.js';
import { UsageError } from './context.js';
import { createOutput } from './output.js';
import { doctorCommand } from './commands/doctor.js';
import { hookCommand, hooksCommand } from './commands/hooks.js';
import { linkCommand } from './commands/link.js';
import { reportCommand } from './commands/report.js';
import { statusCommand } from './commands/status.js';
import { syncCommand } from './commands/sync.js';

type Command = (argv: string[], ctx: CliContext) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  link: linkCommand,
  sync: syncCommand,
  status: statusCommand,
  report: reportCommand,
  hooks: hooksCommand,
  doctor: doctorCommand,
  hook: hookCommand,
};

export const USAGE = `Usage: tokentally <command> [options]

Commands:
  link [--server URL] [--code CODE] [--device-name NAME]   link this machine to a server
  sync [--quiet] [--projects|--no-projects]                 read agent logs and upload token counts
  status [--json]                                          linked server, last sync, queue, files seen
  report [--since D] [--until D] [--tz ZONE] [--by day|model|source|project] [--json] [--refresh]
                                                           totals computed locally, no server needed
  hooks install|uninstall                                  sync automatically from Codex, Claude Code, Gemini CLI
  doctor                                                   check config, server, token and log locations

Only token counts, model names, source names and (with --projects) repository names leave this machine.`;

export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  const out = createOutput(ctx.stdout, ctx.stderr);
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    out.data(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    out.data('tokentally 0.1.0');
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    out.error(`unknown command "${name}"`);
    out.data(USAGE);
    return 2;
  }
  try {
    return await command(rest, ctx);
  } catch (err) {
    if (err instanceof UsageError) {
      out.error(err.message);
      return err.exitCode;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      out.error(`${(err as Error).message} (see \`tokentally --help\`)`);
      return 2;
    }
    out.error(`unexpected failure: ${(err as Error).stack ?? String(err)}`);
    return 1;
  }
}
