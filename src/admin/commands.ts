/**
 * @fileoverview The admin command line's commands: show the keys, create a user, grant/revoke pro,
 * refresh the leaderboard, sync pricing, back up the SQLite database, revoke a device, make a password
 * recovery link. Commands that
 * an HTTP caller could also make go through a built app (same services, access rules and
 * validation); the app is built only for them, so the others answer without its start-up cost.
 */
import { randomUUID } from 'node:crypto';
import type { TokentallyApp } from '../app.js';
import type { Secrets } from '../security/secrets.js';
import type { DatabaseConfig } from '../config.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { findDeviceOwner, revokeUserDevice } from '../db/queries/devices.js';
import { inTransaction } from '../db/transaction.js';
import { backupDatabase } from './backup.js';
import { insertEntitlement, listActiveEntitlements, revokeEntitlements } from '../db/queries/entitlements.js';
import { findUserByEmail, findUserById } from '../db/queries/users.js';

export interface AdminContext {
  /** The app, built on first use (commands that answer from the database alone never build it). */
  app(): Promise<TokentallyApp>;
  secrets(): Promise<Secrets>;
  db: Db;
  clock: Clock;
}

/** The context of commands run against an app that is already built (tests, an embedding caller). */
export function builtAppContext(built: TokentallyApp, db: Db, clock: Clock): AdminContext {
  return { app: () => Promise.resolve(built), secrets: () => Promise.resolve(built.secrets), db, clock };
}

export interface CommandResult {
  output: string;
  exitCode: number;
}

export const USAGE = `usage: npm run admin -- <command>

  keys                                 print the service role key, JWT secret and anonymous key
  create-user <email> <password> [--name <display name>] [--admin]
                                       whatever the sign-up settings; --admin: an instance admin
  make-admin <email|user id>           make the account an instance admin
  revoke-admin <email|user id>         no longer an admin (refused for the last enabled admin)
  grant-pro <email|user id> [--days <n>] [--source <word>]   (no --days: no end)
  revoke-pro <email|user id>
  refresh-leaderboard [--period week|month|total]
  sync-pricing
  revoke-device <device id>            refuse the device's token from now on (its uploads stay)
  reset-link <email|user id>           print a one-time password recovery link (works for an hour)
  backup <file>                        a consistent copy of the SQLite database, while the server runs
`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Flags that take no value. */
const SWITCHES = new Set(['--admin']);

/** Splits `--flag value` pairs (and switches, value `true`) from positional arguments. */
function parseArgs(args: readonly string[]): { positional: string[]; flags: Map<string, string> } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (SWITCHES.has(arg)) {
      flags.set(arg.slice(2), 'true');
    } else if (arg.startsWith('--')) {
      const value = args[i + 1];
      if (value === undefined) throw new UsageError(`${arg} needs a value`);
      flags.set(arg.slice(2), value);
      i += 1;
    } else {
      positional.push(arg);
    }
  }
  return { positional, flags };
}

class UsageError extends Error {}

async function userIdOf(db: Db, who: string | undefined): Promise<string> {
  if (!who) throw new UsageError('name a user by e-mail address or id');
  const user = UUID.test(who)
    ? await findUserById(db.kysely, who.toLowerCase())
    : await findUserByEmail(db.kysely, who.trim().toLowerCase());
  if (!user) throw new UsageError(`no user ${who}`);
  return user.id;
}

async function inject(
  ctx: AdminContext,
  method: 'GET' | 'POST',
  url: string,
  payload?: Record<string, unknown>,
): Promise<CommandResult> {
  const built = await ctx.app();
  const res = await built.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${built.secrets.serviceRoleKey}` },
    ...(payload ? { payload } : {}),
  });
  const body = res.json<unknown>();
  // An operation that answers 200 with `success: false` (syncPricing with the price source unreachable) still failed.
  const failed =
    res.statusCode !== 200 ||
    (typeof body === 'object' && body !== null && (body as { success?: unknown }).success === false);
  return { output: JSON.stringify(body, null, 2), exitCode: failed ? 1 : 0 };
}

/** Which database a command opened, for the operator (a PostgreSQL password never shown). */
export function describeDatabase(database: DatabaseConfig): string {
  if (database.kind === 'sqlite') return `database: SQLite ${database.file}`;
  try {
    const url = new URL(database.url);
    return `database: PostgreSQL ${url.username ? `${decodeURIComponent(url.username)}@` : ''}${url.host}${url.pathname}${database.schema ? ` (schema ${database.schema})` : ''}`;
  } catch {
    return 'database: PostgreSQL';
  }
}

export async function runAdminCommand(ctx: AdminContext, argv: readonly string[]): Promise<CommandResult> {
  const [command, ...rest] = argv;
  try {
    const { positional, flags } = parseArgs(rest);
    switch (command) {
      case 'keys': {
        const s = await ctx.secrets();
        return {
          output: `SERVICE_ROLE_KEY=${s.serviceRoleKey}\nJWT_SECRET=${s.jwtSecret}\nANON_KEY=${s.anonKey}`,
          exitCode: 0,
        };
      }
      case 'create-user': {
        const [email, password] = positional;
        if (!email || !password) throw new UsageError('create-user needs an e-mail address and a password');
        const name = flags.get('name');
        const admin = flags.get('admin') === 'true';
        // GoTrue's admin createUser, with the service role key: no sign-up setting applies.
        const built = await ctx.app();
        const res = await built.app.inject({
          method: 'POST',
          url: '/auth/v1/admin/users',
          headers: { authorization: `Bearer ${built.secrets.serviceRoleKey}` },
          payload: {
            email,
            password,
            ...(name ? { user_metadata: { display_name: name } } : {}),
            ...(admin ? { app_metadata: { role: 'admin' } } : {}),
          },
        });
        const body = res.json<{ id?: string; email?: string; app_metadata?: { role?: string }; detail?: string }>();
        if (res.statusCode !== 200 || !body.id)
          return { output: `could not create the user: ${body.detail ?? res.statusCode}`, exitCode: 1 };
        const role = body.app_metadata?.role === 'admin' ? ' (admin)' : '';
        return { output: `created user ${body.id} <${body.email}>${role}`, exitCode: 0 };
      }
      case 'make-admin':
      case 'revoke-admin': {
        const userId = await userIdOf(ctx.db, positional[0]);
        const admin = command === 'make-admin';
        const result = await inject(ctx, 'POST', '/functions/svc-admin-user-update', { user_id: userId, admin });
        if (result.exitCode !== 0) return result;
        return { output: `${userId} is ${admin ? 'now' : 'no longer'} an admin`, exitCode: 0 };
      }
      case 'grant-pro': {
        const userId = await userIdOf(ctx.db, positional[0]);
        const days = flags.get('days');
        if (days !== undefined && !/^[1-9]\d{0,5}$/.test(days))
          throw new UsageError('--days must be a whole number of days');
        const now = ctx.clock.now();
        const expiresAt = days === undefined ? null : now + Number(days) * 86_400_000;
        await insertEntitlement(ctx.db.kysely, {
          id: randomUUID(),
          userId,
          source: flags.get('source') ?? 'manual',
          grantedAt: now,
          expiresAt,
        });
        const until = expiresAt === null ? 'with no end' : `until ${new Date(expiresAt).toISOString()}`;
        return { output: `granted pro to ${userId} ${until}`, exitCode: 0 };
      }
      case 'revoke-pro': {
        const userId = await userIdOf(ctx.db, positional[0]);
        const now = ctx.clock.now();
        const revoked = await revokeEntitlements(ctx.db.kysely, userId, now);
        const left = await listActiveEntitlements(ctx.db.kysely, userId, now);
        return { output: `revoked ${revoked} pro grant(s) of ${userId}; ${left.length} in force`, exitCode: 0 };
      }
      case 'refresh-leaderboard': {
        const period = flags.get('period');
        return inject(
          ctx,
          'POST',
          `/functions/svc-leaderboard-refresh${period ? `?period=${encodeURIComponent(period)}` : ''}`,
        );
      }
      case 'sync-pricing':
        return inject(ctx, 'POST', '/functions/svc-pricing-sync');
      case 'revoke-device': {
        const deviceId = positional[0];
        if (!deviceId || !UUID.test(deviceId)) throw new UsageError('revoke-device needs a device id');
        const owner = await findDeviceOwner(ctx.db.kysely, deviceId.toLowerCase());
        if (!owner) throw new UsageError(`no device ${deviceId}`);
        const revoked = await inTransaction(ctx.db, (tx) =>
          revokeUserDevice(tx, owner, deviceId.toLowerCase(), ctx.clock.now()),
        );
        // A running server forgets its cached copy of the token within 10 s (docs/devices.md).
        return {
          output: `revoked device ${deviceId.toLowerCase()} of user ${owner} at ${new Date(revoked?.revokedAt ?? ctx.clock.now()).toISOString()}`,
          exitCode: 0,
        };
      }
      case 'reset-link': {
        const userId = await userIdOf(ctx.db, positional[0]);
        const link = await (await ctx.app()).recovery.createRecoveryLink(userId);
        return {
          output: `${link.url}\n(works once, until ${link.expires_at}; opening it signs the user's other sessions out)`,
          exitCode: 0,
        };
      }
      case 'backup': {
        const [file] = positional;
        if (!file) throw new UsageError('backup needs the file to write');
        return backupDatabase(ctx.db, file);
      }
      case undefined:
      case 'help':
      case '--help':
        return { output: USAGE, exitCode: command === undefined ? 1 : 0 };
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } catch (error) {
    if (error instanceof UsageError) return { output: `${error.message}\n\n${USAGE}`, exitCode: 2 };
    throw error;
  }
}
