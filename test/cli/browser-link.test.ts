import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canOpenBrowser, openerCommand, startLoopbackLink, type LoopbackLink } from '../../src/cli/browser-link.js';
import { runCli } from '../../src/cli/cli.js';
import { startFakeServer, type FakeServer } from './fake-server.js';
import { makeCtx, makeHome, removeHome, type TestHome } from './helpers.js';

describe('one-click link: the loopback listener', () => {
  let link: LoopbackLink | undefined;
  afterEach(() => link?.close());

  it('opens the dashboard link page with a loopback callback and a one-time state', async () => {
    link = await startLoopbackLink('https://tt.example.com', 'work laptop', 60_000);
    const url = new URL(link.url);
    expect(url.origin + url.pathname).toBe('https://tt.example.com/link');
    expect(url.searchParams.get('callback')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(url.searchParams.get('device')).toBe('work laptop');
  });

  it('takes the code only with the right state, then answers the tab with the outcome', async () => {
    link = await startLoopbackLink('https://tt.example.com', 'laptop', 60_000);
    const url = new URL(link.url);
    const callback = url.searchParams.get('callback') as string;
    const state = url.searchParams.get('state') as string;
    expect((await fetch(`${callback}?code=AAAA-BBBB-CCCC&state=wrong`)).status).toBe(400);
    expect((await fetch(`${callback.replace('/callback', '/other')}?code=AAAA-BBBB-CCCC&state=${state}`)).status).toBe(
      400,
    );
    const answer = fetch(`${callback}?code=AAAA-BBBB-CCCC&state=${state}`);
    expect(await link.code).toBe('AAAA-BBBB-CCCC');
    link.finish({ ok: true, message: 'laptop is linked.' });
    const res = await answer;
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('laptop is linked. You can close this tab.');
  });

  it('gives up after its time', async () => {
    link = await startLoopbackLink('https://tt.example.com', 'laptop', 50);
    await expect(link.code).rejects.toThrow(/no approval arrived/);
  });

  it('opens a browser only where one can show', () => {
    expect(canOpenBrowser({ DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(canOpenBrowser({}, 'linux')).toBe(false);
    expect(canOpenBrowser({ DISPLAY: ':0', SSH_CONNECTION: '1 2 3 4' }, 'linux')).toBe(false);
    expect(canOpenBrowser({}, 'darwin')).toBe(true);
    expect(canOpenBrowser({ CI: 'true' }, 'darwin')).toBe(false);
    expect(canOpenBrowser({ BROWSER: 'firefox' }, 'linux')).toBe(true);
    expect(canOpenBrowser({ BROWSER: 'firefox', TOKENTALLY_NO_BROWSER: '1' }, 'linux')).toBe(false);
  });
});

describe('the browser opener: a program and its arguments, never a shell', () => {
  // A crafted server URL: `cmd /c start "" <url>` cut it at `&` and ran `calc` (and what follows `|`).
  const crafted = 'https://tt.example.com/link?state=abc&calc.exe|whoami&device=x';

  it('on Windows runs rundll32 with the whole URL as one argument, & and | untouched', () => {
    expect(openerCommand(crafted, {}, 'win32')).toEqual({
      cmd: 'rundll32',
      args: ['url.dll,FileProtocolHandler', crafted],
    });
  });

  it('on macOS runs open, on Linux xdg-open, and $BROWSER where set', () => {
    expect(openerCommand(crafted, {}, 'darwin')).toEqual({ cmd: 'open', args: [crafted] });
    expect(openerCommand(crafted, {}, 'linux')).toEqual({ cmd: 'xdg-open', args: [crafted] });
    expect(openerCommand(crafted, { BROWSER: 'firefox' }, 'win32')).toEqual({ cmd: 'firefox', args: [crafted] });
  });

  it('opens only http(s) URLs', () => {
    expect(openerCommand('http://127.0.0.1:8787/link', {}, 'linux').args).toEqual(['http://127.0.0.1:8787/link']);
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'calc.exe', '--help', 'ms-settings:', ''])
      expect(() => openerCommand(bad, {}, 'win32')).toThrow();
  });
});

describe('one-click link: the command names the account it joined', () => {
  let h: TestHome;
  let srv: FakeServer;
  beforeEach(async () => {
    h = makeHome();
    srv = await startFakeServer();
  });
  afterEach(async () => {
    await srv.close();
    removeHome(h);
  });

  // Whoever saw the page's address (state and port) can hand the waiting command a code of their
  // own account first; the command then says whose account it joined, from the server, not the page.
  it('prints the account the server names for the new device token', async () => {
    srv.accountEmail = 'mallory@example.com';
    let output = '';
    let opened: (url: string) => void = () => undefined;
    const pageUrl = new Promise<string>((resolve) => (opened = resolve));
    const sink = {
      write: (text: string) => {
        output += text;
        const url = /Opening (\S+)/.exec(output)?.[1];
        if (url) opened(url);
      },
    };
    const { ctx } = makeCtx({ ...h.env, BROWSER: 'true' }, { stdout: sink, stderr: sink });
    const done = runCli(['link', '--server', srv.url, '--device-name', 'laptop'], ctx);
    const url = new URL(await pageUrl);
    const callback = new URL(url.searchParams.get('callback') as string);
    callback.searchParams.set('code', 'ABCD-EFGH-JKMN');
    callback.searchParams.set('state', url.searchParams.get('state') as string);
    const tab = await fetch(callback);
    expect(await done, output).toBe(0);
    expect(output).toContain('to the account mallory@example.com');
    expect(output).toContain('If mallory@example.com is not your account');
    expect(await tab.text()).toContain(`laptop is linked to the account mallory@example.com at ${srv.url}.`);
  });
});
