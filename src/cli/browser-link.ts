/**
 * @fileoverview The one-click link (docs/cli.md): a loopback listener on 127.0.0.1 with a one-time
 * state, the dashboard's link page opened in the browser, and the link code the page hands back to
 * `http://127.0.0.1:PORT/callback?code=…&state=…`. Only the link code crosses; the user's session
 * stays in the browser.
 */
import { spawn } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { CliEnv } from './paths.js';

export interface LoopbackLink {
  /** The dashboard page to open. */
  url: string;
  /** Resolves with the link code once the page hands it over (or rejects on timeout). */
  code: Promise<string>;
  /** Answers the browser's tab with the outcome and closes the listener. */
  finish(outcome: { ok: boolean; message: string }): void;
  close(): void;
}

/** The loopback answer, styled like the dashboard (its colours, a card, light or dark as the system is). */
const page = (title: string, message: string, ok = title === 'Linked') => `<!doctype html><html lang="en"><head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Tokentally</title>
<style>:root{color-scheme:light dark;--bg:#f6f7fb;--card:#fff;--text:#0f172a;--muted:#64748b;--border:#e2e8f0;--accent:${ok ? '#10b981' : '#ef4444'}}
@media (prefers-color-scheme:dark){:root{--bg:#0b1020;--card:#121a2e;--text:#e2e8f0;--muted:#94a3b8;--border:#24304a}}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--text);font:16px/1.55 system-ui,sans-serif}
main{background:var(--card);border:1px solid var(--border);border-top:4px solid var(--accent);border-radius:14px;padding:2rem;max-width:30rem;margin:1rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.brand{font-weight:700;color:#6366f1;margin:0 0 1rem}h1{margin:0 0 .5rem;font-size:1.5rem}p{margin:.5rem 0}code{background:var(--bg);padding:.1rem .3rem;border-radius:4px}</style>
</head><body><main><p class="brand">Tokentally</p><h1>${title}</h1><p>${message}</p>${
  ok
    ? '<p>Next, in the terminal: <code>tokentally hooks install</code> syncs automatically after each agent session.</p>'
    : ''
}</main></body></html>`;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Starts the loopback listener; the page URL carries its address, the state and the device name. */
export async function startLoopbackLink(server: string, deviceName: string, timeoutMs: number): Promise<LoopbackLink> {
  const state = randomBytes(24).toString('base64url');
  let settle: { resolve: (code: string) => void; reject: (e: Error) => void } | undefined;
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  let pending: ServerResponse | undefined;
  const listener: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const given = Buffer.from(url.searchParams.get('state') ?? '');
    const expected = Buffer.from(state);
    const linkCode = url.searchParams.get('code') ?? '';
    if (
      url.pathname !== '/callback' ||
      given.length !== expected.length ||
      !timingSafeEqual(given, expected) ||
      linkCode === '' ||
      pending
    ) {
      res
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(page('Not linked', 'This request does not match the waiting <code>tokentally link</code> command.'));
      return;
    }
    pending = res;
    settle?.resolve(linkCode);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (listener.address() as { port: number }).port;
  const timer = setTimeout(() => settle?.reject(new Error('no approval arrived from the browser in time')), timeoutMs);
  timer.unref();
  const close = () => {
    clearTimeout(timer);
    listener.close();
    listener.closeAllConnections?.();
  };
  const query = new URLSearchParams({ callback: `http://127.0.0.1:${port}/callback`, state, device: deviceName });
  return {
    url: `${server}/link?${query.toString()}`,
    code,
    finish(outcome) {
      pending
        ?.writeHead(outcome.ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
        .end(page(outcome.ok ? 'Linked' : 'Not linked', `${escape(outcome.message)} You can close this tab.`));
      close();
    },
    close,
  };
}

/** Whether a browser can be opened here: not over SSH, not in CI, and (on Linux) with a display. */
export function canOpenBrowser(env: CliEnv, platform: string): boolean {
  if (env['TOKENTALLY_NO_BROWSER'] === '1' || env['CI'] === 'true' || env['SSH_CONNECTION'] || env['SSH_TTY'])
    return false;
  if (env['BROWSER']) return true;
  if (platform === 'linux') return Boolean(env['DISPLAY'] || env['WAYLAND_DISPLAY']);
  return platform === 'darwin' || platform === 'win32';
}

/** The program and arguments that open a URL: never a shell, the URL one argument of its own. */
export interface OpenerCommand {
  cmd: string;
  args: string[];
}

/**
 * How `url` is opened on `platform` ($BROWSER first): a pure function, so its arguments can be
 * checked. Only an http(s) URL is opened; anything else is refused (an Error). On Windows
 * `rundll32 url.dll,FileProtocolHandler`, not `cmd /c start`: cmd would end the URL at an `&` and
 * run what follows it (or a `|`) as a command.
 */
export function openerCommand(url: string, env: CliEnv, platform: string): OpenerCommand {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`only http(s) addresses are opened, not ${parsed.protocol}`);
  const href = parsed.href;
  const browser = env['BROWSER'];
  if (browser) return { cmd: browser, args: [href] };
  if (platform === 'darwin') return { cmd: 'open', args: [href] };
  if (platform === 'win32') return { cmd: 'rundll32', args: ['url.dll,FileProtocolHandler', href] };
  return { cmd: 'xdg-open', args: [href] };
}

/** Opens `url` with $BROWSER or the platform's opener (no shell); false when that could not start. */
export function openBrowser(url: string, env: CliEnv, platform: string): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const { cmd, args } = openerCommand(url, env, platform);
      const child = spawn(cmd, args, { stdio: 'ignore', detached: true, shell: false, windowsHide: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
