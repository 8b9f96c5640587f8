/**
 * @fileoverview deleteAccount (user JWT, the password re-entered) and exportUsage (user JWT,
 * streamed, a slot held while it streams; closed when its client stops reading).
 */
import type { App } from '../app-types.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/connect.js';
import { principalOf } from '../http/access.js';
import { problems } from '../http/problem.js';
import { clientKey, type RateLimiter } from '../http/rate-limit.js';
import { AccountDeleteRequest, AccountDeleteResponse, ExportQuery } from '../schemas/account.js';
import { rawResponses, responses } from '../schemas/common.js';
import type { AccountDeletionService } from '../services/account-deletion.js';
import { exportChunks, parseExportRange, type ExportRange } from '../services/export.js';
import { ExportSlots } from '../services/export-slots.js';
import { ExportStream } from '../services/export-stream.js';
import type { PriceService, PriceSource } from '../pricing/index.js';
import { operation } from './operation.js';

const EXPORT_OK = {
  description: 'The export, streamed as an attachment (docs/sharing.md, "Export").',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        description: '{user_id, from, to, generated_at, buckets: [...], daily: [...], totals}',
      },
    },
    'text/csv': {
      schema: {
        type: 'string',
        description: 'record,hour_start,day,device,source,model,project,project_ref,<counts>,cost_usd',
      },
    },
  },
};

/** Retry-After of an export refused for want of a slot: about the time an export takes. */
const EXPORT_RETRY_AFTER_SECONDS = 5;

export interface AccountRouteDeps {
  db: Db;
  clock: Clock;
  deletion: AccountDeletionService;
  limiter: RateLimiter;
  prices: PriceSource<PriceService>;
  /** The config's export limits (EXPORT_MAX_PER_USER, EXPORT_MAX_CONCURRENT, EXPORT_STALL_TIMEOUT_MS). */
  config: { readonly exports: { maxPerUser: number; maxConcurrent: number; stallTimeoutMs: number } };
}

export function registerAccountRoutes(app: App, deps: AccountRouteDeps): void {
  const { db, clock, deletion, limiter, prices } = deps;
  const limits = deps.config.exports;
  const slots = new ExportSlots(limits.maxPerUser, limits.maxConcurrent);
  const stallMs = limits.stallTimeoutMs;

  app.get(
    '/functions/svc-export',
    operation(
      {
        operationId: 'exportUsage',
        summary: 'Download all of your usage: half-hour buckets and daily totals with cost',
        description:
          "Streams the caller's half-hour buckets (device, source, model, project, the five counts and billable tokens, the UTC half-hour) " +
          'and daily totals with cost, as JSON or CSV, for UTC days `from`…`to` (inclusive; all time by default). ' +
          'Exports streaming at once are limited per account (2 by default) and per server process (8): one more is 429 with ' +
          '`Retry-After`. An export whose client reads nothing for 30 seconds (by default) is closed.',
        tags: ['account'],
        access: { roles: ['user'] },
      },
      { querystring: ExportQuery, response: rawResponses(EXPORT_OK, 400, 401, 403, 429) },
    ),
    async (request, reply) => {
      const userId = principalOf(request, 'user').userId;
      const range: ExportRange = parseExportRange(request.query.from, request.query.to);
      const format = request.query.format ?? 'json';
      const now = clock.now();
      const name = `tokentally-export-${new Date(now).toISOString().slice(0, 10)}.${format}`;
      const slot = slots.take(userId);
      if (slot === 'user')
        throw problems.rateLimited(
          EXPORT_RETRY_AFTER_SECONDS,
          `This account already has ${slots.maxPerUser} exports running; retry when one has finished.`,
        );
      if (slot === 'process')
        throw problems.rateLimited(
          EXPORT_RETRY_AFTER_SECONDS,
          'The server is running its most exports; retry shortly.',
        );
      void reply
        .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store');
      const chunks = exportChunks(db, { userId, range, format, generatedAt: now, prices });
      const stream = new ExportStream(chunks, {
        stallMs,
        onStall: () => {
          request.log.warn({ user_id: userId, stall_ms: stallMs }, 'export closed: its client read nothing in time');
          request.raw.socket.destroy();
        },
        onClose: slot.release,
      });
      return reply.send(stream);
    },
  );

  // A password check: limited per client address like sign-in (an IPv6 client by its /64), so a
  // stolen JWT cannot guess passwords fast.
  const rateLimited = async (request: { ip: string }) => {
    const decision = await limiter.take(`auth:${clientKey(request.ip)}`);
    if (!decision.allowed)
      throw problems.rateLimited(decision.retryAfterSeconds, 'Too many attempts from this address; retry later.');
  };

  app.post(
    '/functions/svc-account-delete',
    {
      ...operation(
        {
          operationId: 'deleteAccount',
          summary: 'Delete the account and everything it owns',
          description:
            'Removes the user, devices and their tokens, usage buckets and read models, leaderboard rows (the current snapshot stops showing ' +
            'them at once), sharing, sessions and refresh tokens, in one transaction. The password is re-entered; an account without one ' +
            '(external OpenID Connect) sends `confirm: "delete my account"`. A wrong password answers 403 and deletes nothing.',
          tags: ['account'],
          access: { roles: ['user'] },
        },
        { body: AccountDeleteRequest, response: responses(AccountDeleteResponse, 400, 401, 403, 415, 429) },
      ),
      onRequest: rateLimited,
    },
    async (request): Promise<AccountDeleteResponse> => {
      const userId = principalOf(request, 'user').userId;
      const counts = await deletion.delete(userId, request.body);
      request.log.info({ deleted: counts }, 'account deleted');
      return { deleted: true as const, user_id: userId };
    },
  );
}
