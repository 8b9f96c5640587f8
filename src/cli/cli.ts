/**
 * @fileoverview Command dispatch: `tokentally <command> [options]`. Each command lives in
 * commands/<name>.ts and receives the remaining arguments and a {@link CliContext}; its synopsis
 * and help text live here, so `tokentally --help` and `tokentally <command> --help` agree.
 */
import type { CliContext } from './context.js';
import { UsageError } from './context.js';
import { createOutput } from './output.js';
import { VERSION } from './version.js';
import { doctorCommand } from './commands/doctor.js';
import { hookCommand, hooksCommand } from './commands/hooks.js';
import { linkCommand } from './commands/link.js';
import { reportCommand } from './commands/report.js';
import { scheduleCommand } from './commands/schedule.js';
import { statusCommand } from './commands/status.js';
import { syncCommand } from './commands/sync.js';

type Run = (argv: string[], ctx: CliContext) => Promise<number>;

interface Command {
  run: Run;
  /** Options and arguments, as shown after the command's name. */
  synopsis: string;
  summary: string;
  /** Longer help for `tokentally <command> --help`. */
  details: string;
  hidden?: boolean;
}

const COMMANDS: Record<string, Command> = {
  link: {
    run: linkCommand,
    synopsis: '[--server URL] [--code CODE] [--device-name NAME] [--hooks|--no-hooks]',
    summary: 'link this machine to a server',
    details: `Exchanges a one-time link code (create it in the dashboard) for a device token, then offers automatic sync.
  --server URL        the server (default: TOKENTALLY_SERVER, the configured server, or http://127.0.0.1:8787)
  --code CODE         the link code (default: TOKENTALLY_LINK_CODE; asked for on a terminal)
  --device-name NAME  how this machine appears in the dashboard (default: the hostname)
  --hooks             set up automatic sync (hooks and the periodic schedule) without asking
  --no-hooks          do not set up automatic sync and do not ask`,
  },
  sync: {
    run: syncCommand,
    synopsis: '[--quiet] [--projects|--no-projects]',
    summary: 'read agent logs and upload token counts',
    details: `Reads what changed in the agents' logs, uploads the changed half-hour totals and says what was sent.
  --quiet, -q      print only errors
  --projects       also send the owner/repo of each session's git remote (remembered)
  --no-projects    stop sending repository names (remembered)`,
  },
  status: {
    run: statusCommand,
    synopsis: '[--json]',
    summary: 'linked server, last sync, queue, files seen',
    details: `Local only: the linked server and device, last sync and upload, queued buckets, files seen per agent.
  --json  machine-readable output`,
  },
  report: {
    run: reportCommand,
    synopsis: '[--since D] [--until D] [--tz ZONE] [--by day|model|source|project|block|session] [--json] [--refresh]',
    summary: 'tokens and cost computed locally, no server needed',
    details: `Totals from the local bucket store, priced with the server's price data and rules.
  --since D, --until D  local calendar days (YYYY-MM-DD, inclusive)
  --tz ZONE             IANA time zone of those days (default: TZ or the system zone)
  --by KEY              rows per day (default), model, source, project, block (Claude's 5-hour windows) or session
  --json                machine-readable output
  --refresh             read the agents' logs first (without uploading)`,
  },
  hooks: {
    run: hooksCommand,
    synopsis: 'install|uninstall',
    summary: 'sync automatically from the agents that have hooks',
    details: `  install    make Codex, Claude Code, Gemini CLI, Qwen Code, Factory Droid and OpenCode sync after turns and sessions
             (through a small launcher that finds tokentally on the PATH, so hooks survive a Node upgrade)
  uninstall  remove exactly what install added`,
  },
  schedule: {
    run: scheduleCommand,
    synopsis: 'install [--every MINUTES]|uninstall',
    summary: 'sync periodically, for agents without hooks',
    details: `  install    a systemd user timer (Linux), launchd agent (macOS) or scheduled task (Windows) running \`sync --quiet\`
  --every M  minutes between syncs (5–1440, default 15)
  uninstall  remove it`,
  },
  doctor: {
    run: doctorCommand,
    synopsis: '',
    summary: 'check config, server, token, versions and log locations',
    details:
      'Says first whether all is well, then the problems, then the details: the config, the server (and that its version matches this CLI), the device token, the queue, whether the installed hooks still run tokentally, and where each agent keeps its logs. Exit 1 when something needed is wrong.',
  },
  hook: { run: hookCommand, synopsis: '<agent>', summary: 'called by agent hooks', details: '', hidden: true },
};

function usage(): string {
  const visible = Object.entries(COMMANDS).filter(([, c]) => c.hidden !== true);
  const heads = visible.map(([name, c]) => `${name} ${c.synopsis}`.trimEnd());
  const width = Math.min(Math.max(...heads.map((h) => h.length)), 54);
  const lines = visible.map(([, c], i) => {
    const head = heads[i] as string;
    return head.length <= width
      ? `  ${head.padEnd(width)}  ${c.summary}`
      : `  ${head}\n  ${' '.repeat(width)}  ${c.summary}`;
  });
  return `Usage: tokentally <command> [options]    (tokentally <command> --help for details)

Commands:
${lines.join('\n')}

Only token counts, model names, source names and (with --projects) repository names leave this machine.`;
}

export const USAGE = usage();

export function commandHelp(name: string): string | undefined {
  const c = COMMANDS[name];
  if (c === undefined || c.hidden === true) return undefined;
  return `Usage: tokentally ${name} ${c.synopsis}`.trimEnd() + `\n\n${c.details}`;
}

export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  const out = createOutput(ctx.stdout, ctx.stderr);
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const topic = name === 'help' && rest[0] !== undefined ? commandHelp(rest[0]) : undefined;
    out.data(topic ?? USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    out.data(`tokentally ${VERSION}`);
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    out.error(`unknown command "${name}"`);
    out.data(USAGE);
    return 2;
  }
  if (command.hidden !== true && (rest.includes('--help') || rest.includes('-h'))) {
    out.data(commandHelp(name) as string);
    return 0;
  }
  if ((name === 'hooks' || name === 'schedule') && rest.length === 0) {
    out.data(commandHelp(name) as string);
    return 2;
  }
  try {
    return await command.run(rest, ctx);
  } catch (err) {
    if (err instanceof UsageError) {
      out.error(err.message);
      return err.exitCode;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      out.error(`${(err as Error).message} (see \`tokentally ${name} --help\`)`);
      return 2;
    }
    out.error(`unexpected failure: ${(err as Error).stack ?? String(err)}`);
    return 1;
  }
}
