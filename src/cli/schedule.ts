/**
 * @fileoverview Periodic sync for agents without a hook: the files and commands of a systemd user
 * timer (Linux), a launchd agent (macOS) or a scheduled task (Windows) that run the hook launcher
 * (hooks/launcher.ts) with `sync --quiet` every few minutes. Pure: commands/schedule.ts writes the
 * files and runs the commands through the context's injectable runner.
 */
import path from 'node:path';
import { homeDir, type CliEnv } from './paths.js';

export const UNIT = 'tokentally-sync';
export const LAUNCHD_LABEL = 'dev.tokentally.sync';

export interface SchedulePlan {
  /** What it is, for messages: "systemd user timer", … */
  kind: string;
  files: { path: string; content: string }[];
  /** Run after writing the files (install) or before removing them (uninstall). */
  commands: [string, string[]][];
}

function configHome(env: CliEnv): string {
  const v = env['XDG_CONFIG_HOME'];
  return v !== undefined && path.isAbsolute(v) ? v : path.join(homeDir(env), '.config');
}

export function systemdDir(env: CliEnv): string {
  return path.join(configHome(env), 'systemd', 'user');
}

export function launchdFile(env: CliEnv): string {
  return path.join(homeDir(env), 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
}

const xml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** systemd's quoting for one ExecStart word. */
const unitWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `"${s.replace(/(["\\])/g, '\\$1')}"`);

export function installPlan(platform: string, env: CliEnv, launcher: string, minutes: number): SchedulePlan {
  const argv = [launcher, 'sync', '--quiet'];
  if (platform === 'darwin') {
    const file = launchdFile(env);
    const content = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key><string>${LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${argv.map((a) => `    <string>${xml(a)}</string>`).join('\n')}
  </array>
  <key>StartInterval</key><integer>${minutes * 60}</integer>
  <key>RunAtLoad</key><true/>
  <key>ProcessType</key><string>Background</string>
  <key>LowPriorityIO</key><true/>
</dict>
</plist>
`;
    return {
      kind: 'launchd agent',
      files: [{ path: file, content }],
      commands: [
        ['launchctl', ['unload', file]],
        ['launchctl', ['load', '-w', file]],
      ],
    };
  }
  if (platform === 'win32') {
    return {
      kind: 'scheduled task',
      files: [],
      commands: [
        [
          'schtasks',
          ['/Create', '/F', '/SC', 'MINUTE', '/MO', String(minutes), '/TN', UNIT, '/TR', `"${launcher}" sync --quiet`],
        ],
      ],
    };
  }
  const dir = systemdDir(env);
  return {
    kind: 'systemd user timer',
    files: [
      {
        path: path.join(dir, `${UNIT}.service`),
        content: `# Written by \`tokentally schedule install\`; \`tokentally schedule uninstall\` removes it.
[Unit]
Description=tokentally: upload token counts from AI coding agents' logs

[Service]
Type=oneshot
ExecStart=${argv.map(unitWord).join(' ')}
Nice=10
IOSchedulingClass=idle
`,
      },
      {
        path: path.join(dir, `${UNIT}.timer`),
        content: `# Written by \`tokentally schedule install\`; \`tokentally schedule uninstall\` removes it.
[Unit]
Description=tokentally: sync every ${minutes} minutes

[Timer]
OnBootSec=5min
OnUnitActiveSec=${minutes}min
RandomizedDelaySec=60

[Install]
WantedBy=timers.target
`,
      },
    ],
    commands: [
      ['systemctl', ['--user', 'daemon-reload']],
      ['systemctl', ['--user', 'enable', '--now', `${UNIT}.timer`]],
    ],
  };
}

export function uninstallPlan(platform: string, env: CliEnv): SchedulePlan {
  if (platform === 'darwin') {
    const file = launchdFile(env);
    return {
      kind: 'launchd agent',
      files: [{ path: file, content: '' }],
      commands: [['launchctl', ['unload', '-w', file]]],
    };
  }
  if (platform === 'win32')
    return { kind: 'scheduled task', files: [], commands: [['schtasks', ['/Delete', '/F', '/TN', UNIT]]] };
  const dir = systemdDir(env);
  return {
    kind: 'systemd user timer',
    files: [
      { path: path.join(dir, `${UNIT}.timer`), content: '' },
      { path: path.join(dir, `${UNIT}.service`), content: '' },
    ],
    commands: [['systemctl', ['--user', 'disable', '--now', `${UNIT}.timer`]]],
  };
}
