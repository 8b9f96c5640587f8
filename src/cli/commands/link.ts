/**
 * @fileoverview `tokentally link [--server URL] [--code CODE] [--device-name NAME]`: exchange
 * a one-time link code for a device token. Without a code, the browser is opened at the
 * dashboard's link page, which hands a fresh code back to a loopback listener (browser-link.ts);
 * where no browser can open (SSH, CI) the page's address and the `--code` way are printed. The request id is created once per (server, code)
 * and kept in the config until the exchange succeeds, so retrying after a lost answer gets the
 * same device and token instead of a 409. Once linked, it says which account the device joined, as
 * the exchange's answer names it: a code of someone else's account, handed to the waiting command,
 * shows at once. It ends by offering automatic sync (hooks and a periodic schedule; `--no-hooks` skips).
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ApiError, postJson } from '../api.js';
import { canOpenBrowser, openBrowser, startLoopbackLink } from '../browser-link.js';
import { loadConfig, saveConfig } from '../config-store.js';
import { UsageError, type CliContext } from '../context.js';
import { isRecord, str } from '../json-file.js';
import { createOutput } from '../output.js';
import { ownPaths } from '../paths.js';
import { installHooks } from './hooks.js';
import { installSchedule } from './schedule.js';

export const DEFAULT_SERVER = 'http://127.0.0.1:8787';

export function normalizeServer(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.includes('://') ? raw : `https://${raw}`);
  } catch {
    throw new UsageError(`"${raw}" is not a server URL (e.g. https://tokentally.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`the server URL must start with http:// or https://`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export async function linkCommand(argv: string[], ctx: CliContext): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      server: { type: 'string' },
      code: { type: 'string' },
      'device-name': { type: 'string' },
      hooks: { type: 'boolean' },
      'no-hooks': { type: 'boolean' },
    },
    allowPositionals: false,
  });
  const out = createOutput(ctx.stdout, ctx.stderr);
  const paths = ownPaths(ctx.env);
  const config = loadConfig(paths.configFile);
  const server = normalizeServer(values.server ?? ctx.env['TOKENTALLY_SERVER'] ?? config.server ?? DEFAULT_SERVER);
  const deviceName = (values['device-name'] ?? ctx.hostname).slice(0, 128);
  let code = (values.code ?? ctx.env['TOKENTALLY_LINK_CODE'] ?? '').trim();
  if (code === '') {
    if (canOpenBrowser(ctx.env, ctx.platform)) {
      const link = await startLoopbackLink(server, deviceName || 'this machine', BROWSER_WAIT_MS);
      out.info(`Opening ${link.url}`);
      out.info('Approve the link in your browser (sign in first if asked). Waiting…');
      if (!(await openBrowser(link.url, ctx.env, ctx.platform)))
        out.info('Could not open a browser: open the address above yourself.');
      try {
        code = await link.code;
      } catch (err) {
        link.close();
        throw new UsageError(
          `${(err as Error).message}. Run \`tokentally link --server ${server}\` again, or create a code at ${server}/devices and add --code.`,
          1,
        );
      }
      try {
        const { account } = await exchangeAndSave(ctx, server, code, deviceName);
        const where = account === undefined ? server : `the account ${account} at ${server}`;
        link.finish({ ok: true, message: `${deviceName || 'This machine'} is linked to ${where}.` });
        return await offerAutomaticSync(
          ctx,
          values.hooks === true ? 'yes' : values['no-hooks'] === true ? 'no' : 'ask',
        );
      } catch (err) {
        link.finish({ ok: false, message: err instanceof Error ? err.message : String(err) });
        throw err;
      }
    }
    out.info(
      `No browser here. Either open ${server}/devices, create a link code and run:\n  tokentally link --server ${server} --code XXXX-XXXX-XXXX`,
    );
    if (!ctx.interactive) {
      throw new UsageError(
        'no link code given. Create one in the dashboard, then run `tokentally link --code XXXX-XXXX-XXXX` (or set TOKENTALLY_LINK_CODE).',
      );
    }
    code = (await ctx.prompt('Link code (from the dashboard): ')).trim();
    if (code === '') throw new UsageError('no link code entered.');
  }
  await exchangeAndSave(ctx, server, code, deviceName);
  return offerAutomaticSync(ctx, values.hooks === true ? 'yes' : values['no-hooks'] === true ? 'no' : 'ask');
}

/**
 * The end of `link`: set up automatic sync (agent hooks, and a periodic schedule for agents
 * without one). `--hooks` does it, `--no-hooks` skips it, a terminal is asked (default yes),
 * anything else is told the commands.
 */
async function offerAutomaticSync(ctx: CliContext, mode: 'yes' | 'no' | 'ask'): Promise<number> {
  const out = createOutput(ctx.stdout, ctx.stderr);
  if (mode === 'no') return 0;
  let go = mode === 'yes';
  if (mode === 'ask') {
    if (!ctx.interactive) {
      out.info(
        'To sync automatically: `tokentally hooks install` (agents with hooks) and `tokentally schedule install` (every 15 minutes, for the others).',
      );
      return 0;
    }
    const answer = (await ctx.prompt('Sync automatically from now on (agent hooks and a 15-minute schedule)? [Y/n] '))
      .trim()
      .toLowerCase();
    go = answer === '' || answer === 'y' || answer === 'yes';
    if (!go) {
      out.info('Skipped. Later: `tokentally hooks install` and `tokentally schedule install`.');
      return 0;
    }
  }
  const hooks = installHooks(ctx, out);
  const schedule = installSchedule(ctx, out);
  return hooks === 0 && schedule === 0 ? 0 : 1;
}

/** How long the one-click link waits for the browser's approval. */
const BROWSER_WAIT_MS = 10 * 60_000;

/** The account the exchange says the device joined: its e-mail address, else its display name. */
function accountOf(answer: unknown): string | undefined {
  const account = isRecord(answer) ? answer['account'] : undefined;
  return isRecord(account) ? (str(account['email']) ?? str(account['display_name'])) : undefined;
}

async function exchangeAndSave(
  ctx: CliContext,
  server: string,
  code: string,
  deviceName: string,
): Promise<{ account: string | undefined }> {
  const out = createOutput(ctx.stdout, ctx.stderr);
  const paths = ownPaths(ctx.env);
  const config = loadConfig(paths.configFile);
  const pending = config.pendingLink;
  const requestId =
    pending !== undefined && pending.server === server && pending.code === code ? pending.requestId : randomUUID();
  config.pendingLink = { server, code, requestId };
  saveConfig(paths.configFile, config);

  const body: Record<string, string> = { link_code: code, request_id: requestId, platform: ctx.platform.slice(0, 32) };
  if (deviceName !== '') body['device_name'] = deviceName;
  let answer: unknown;
  try {
    answer = await postJson(`${server}/functions/svc-link-code-exchange`, body, undefined, ctx.api);
  } catch (err) {
    if (err instanceof ApiError) {
      if (err.status === 400)
        throw new UsageError(
          `the server refused the link code: ${err.message}. Codes are single-use and expire after a few minutes; create a new one.`,
          1,
        );
      if (err.status === 409)
        throw new UsageError(
          `this link code was already used by another machine: ${err.message}. Create a new one.`,
          1,
        );
      throw new UsageError(
        `could not link: ${err.message}${err.retryable ? ' (run the same command again to retry safely)' : ''}`,
        1,
      );
    }
    throw err;
  }
  const token = isRecord(answer) ? str(answer['token']) : undefined;
  const deviceId = isRecord(answer) ? str(answer['device_id']) : undefined;
  const userId = isRecord(answer) ? str(answer['user_id']) : undefined;
  if (token === undefined || deviceId === undefined)
    throw new UsageError('the server answered without a device token.', 1);
  const linked = loadConfig(paths.configFile);
  delete linked.pendingLink;
  linked.server = server;
  linked.token = token;
  linked.deviceId = deviceId;
  if (userId !== undefined) linked.userId = userId;
  linked.linkedAt = new Date(ctx.now()).toISOString();
  saveConfig(paths.configFile, linked);
  const account = accountOf(answer);
  const whose = account === undefined ? ' (the server did not say which account)' : `, to the account ${account}`;
  out.info(
    `Linked to ${server} as device "${deviceName || ctx.hostname}" (${deviceId})${whose}. Config saved in ${paths.configFile}.`,
  );
  if (account !== undefined)
    out.info(`If ${account} is not your account, do not sync: run \`tokentally link\` again to link to yours.`);
  out.info('Next: `tokentally sync` sends what the agents logged so far.');
  return { account };
}
