/** @fileoverview deleteAccount (user JWT, the password re-entered) and exportUsage (user JWT, streamed). */
import { Readable } from 'node:stream';
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
import type { CostPrices } from '../services/price-book.js';
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

export function registerAccountRoutes(
  app: App,
  deps: { db: Db; clock: Clock; deletion: AccountDeletionService; limiter: RateLimiter; prices: CostPrices },
): void {
  const { db, clock, deletion, limiter, prices } = deps;

  app.get(
    '/functions/svc-export',
    operation(
      {
        operationId: 'exportUsage',
        summary: 'Download all of your usage: half-hour buckets and daily totals with cost',
        description:
          "Streams the caller's half-hour buckets (device, source, model, project, the five counts and billable tokens, the UTC half-hour) " +
          'and daily totals with cost, as JSON or CSV, for UTC days `from`…`to` (inclusive; all time by default).',
        tags: ['account'],
        access: { roles: ['user'] },
      },
      { querystring: ExportQuery, response: rawResponses(EXPORT_OK, 400, 401, 403) },
    ),
    async (request, reply) => {
      const userId = principalOf(request, 'user').userId;
      const range: ExportRange = parseExportRange(request.query.from, request.query.to);
      const format = request.query.format ?? 'json';
      const now = clock.now();
      const name = `tokentally-export-${new Date(now).toISOString().slice(0, 10)}.${format}`;
      void reply
        .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store');
      return reply.send(
        Readable.from(exportChunks(db, { userId, range, format, generatedAt: now, prices }), { objectMode: false }),
      );
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
