/**
 * @fileoverview `tokentally schedule install [--every MINUTES]|uninstall`: a periodic `sync --quiet`
 * for the agents that have no hook (a systemd user timer on Linux, a launchd agent on macOS, a
 * scheduled task on Windows; schedule.ts). It runs the same launcher as the hooks, so it survives
 * a Node upgrade. System programs run through `ctx.runProgram`; without one (tests) the files are
 * written and the commands printed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError, type CliContext } from '../context.js';
import { installLauncher } from '../hooks/launcher.js';
import { writeFileAtomic } from '../json-file.js';
import { createOutput, type Output } from '../output.js';
import { installPlan, uninstallPlan, type SchedulePlan } from '../schedule.js';

export async function scheduleCommand(argv: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { every: { type: 'string', default: '15' } },
    allowPositionals: true,
  });
  const action = positionals[0];
  if (action !== 'install' && action !== 'uninstall')
    throw new UsageError('usage: tokentally schedule install [--every MINUTES]|uninstall');
  const minutes = Number(values.every);
  if (!Number.isInteger(minutes) || minutes < 5 || minutes > 1440)
    throw new UsageError('--every must be a whole number of minutes from 5 to 1440');
  const out = createOutput(ctx.stdout, ctx.stderr);
  return action === 'install' ? installSchedule(ctx, out, minutes) : uninstallSchedule(ctx, out);
}

function runAll(ctx: CliContext, out: Output, commands: SchedulePlan['commands'], tolerant: number): boolean {
  if (ctx.runProgram === undefined) {
    out.info(`To activate it, run:\n${commands.map(([c, a]) => `  ${c} ${a.join(' ')}`).join('\n')}`);
    return true;
  }
  for (const [i, [cmd, args]] of commands.entries()) {
    const r = ctx.runProgram(cmd, args);
    // the first `tolerant` commands may fail (unloading what is not loaded)
    if (r.code !== 0 && i >= tolerant) {
      out.error(`${cmd} ${args.join(' ')} failed${r.output !== '' ? `: ${r.output}` : ''}`);
      return false;
    }
  }
  return true;
}

export function installSchedule(ctx: CliContext, out: Output, minutes = 15): number {
  const launcher = installLauncher(ctx.env, ctx.platform, ctx.selfCommand);
  const plan = installPlan(ctx.platform, ctx.env, launcher.file, minutes);
  for (const f of plan.files) {
    fs.mkdirSync(path.dirname(f.path), { recursive: true });
    writeFileAtomic(f.path, f.content, 0o644);
  }
  const where = plan.files.length > 0 ? ` (${plan.files.map((f) => f.path).join(', ')})` : '';
  if (!runAll(ctx, out, plan.commands, ctx.platform === 'darwin' ? 1 : 0)) return 1;
  out.info(`schedule: a ${plan.kind} syncs every ${minutes} minutes${where}.`);
  return 0;
}

export function uninstallSchedule(ctx: CliContext, out: Output): number {
  const plan = uninstallPlan(ctx.platform, ctx.env);
  const present = plan.files.filter((f) => fs.existsSync(f.path));
  if (plan.files.length > 0 && present.length === 0) {
    out.info(`schedule: no ${plan.kind} installed.`);
    return 0;
  }
  runAll(ctx, out, plan.commands, plan.commands.length);
  for (const f of present) fs.unlinkSync(f.path);
  if (ctx.platform === 'linux' && ctx.runProgram !== undefined)
    ctx.runProgram('systemctl', ['--user', 'daemon-reload']);
  out.info(
    `schedule: removed the ${plan.kind}${present.length > 0 ? ` (${present.map((f) => f.path).join(', ')})` : ''}.`,
  );
  return 0;
}

/** Whether a schedule is installed (undefined where it cannot be told from files: Windows). */
export function scheduleInstalled(ctx: CliContext): boolean | undefined {
  if (ctx.platform === 'win32') return undefined;
  return uninstallPlan(ctx.platform, ctx.env).files.some((f) => fs.existsSync(f.path));
}
